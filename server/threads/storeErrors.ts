// What the thread store refuses, by kind, so the methods can answer each with its own JSON-RPC error.
export class ThreadNotFoundError extends Error {
  constructor(readonly threadId: string) {
    super(`thread not found: ${threadId}`);
  }
}

/** A request the thread's history cannot satisfy (a turn it lacks, more turns than it has, …). */
export class HistoryError extends Error {}

/** A change asked of a thread of the Codex history, which is only read. */
export class ReadOnlyThreadError extends HistoryError {
  constructor(readonly threadId: string) {
    super(
      `thread ${threadId} belongs to the Codex history, which Threadline only reads: resume or fork it to continue it here`,
    );
  }
}
