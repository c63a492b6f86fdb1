// Apart from thread.ts, whose schemas the server builds only when a request first needs them
// (lazySchemas.ts): the turn machinery says this from the start.

/**
 * How the message of a TurnError starts when the turn could not be written to disk (a full disk, a
 * read-only home); the rest says what failed and where. Threadline's wording: Codex has no
 * codexErrorInfo for it, so clients that want to single it out match this.
 */
export const TURN_NOT_SAVED = 'The turn was not saved: ';
