// A text a client already has part of, streamed again from the start: a response cut off and
// retried keeps its items (same ids), and the retry's text passes through here, so the client gets
// only what it lacks. A retry usually says the same words again; when it says something else, the
// client's copy cannot be mended by appending, and the item's completion carries the text instead.

export class StreamCatchup {
  /** How much of the sent text the retry has said again (and agreed with). */
  private at = 0;
  private differed = false;

  constructor(readonly sent: string) {}

  /**
   * The part of the retry's next delta the client lacks: '' while the retry repeats what was sent,
   * the rest beyond it, or null once the retry said something else (then for good).
   */
  pass(delta: string): string | null {
    if (this.differed) return null;
    const overlap = Math.min(delta.length, this.sent.length - this.at);
    if (overlap > 0 && !this.sent.startsWith(delta.slice(0, overlap), this.at)) {
      this.differed = true;
      return null;
    }
    this.at += overlap;
    return delta.slice(overlap);
  }

  /** The retry said something else than was sent. */
  get differs(): boolean {
    return this.differed;
  }

  /** The retry has said all that was sent, and the same. */
  get caughtUp(): boolean {
    return !this.differed && this.at >= this.sent.length;
  }
}

/**
 * The same for an item of several texts (a reasoning block's summary and content parts, by name):
 * each part is caught up on by itself, and once one differs the item streams no more.
 */
export class PartsCatchup {
  private readonly parts = new Map<string, StreamCatchup>();

  /** `sent`: what the client has of each part; null: the client's copy cannot be mended at all. */
  constructor(private readonly sent: Map<string, string> | null) {}

  /** Whether the client has been told the part exists. */
  knows(part: string): boolean {
    return this.sent === null || this.sent.has(part);
  }

  /** As StreamCatchup.pass, for one part. */
  pass(part: string, delta: string): string | null {
    if (this.sent === null || [...this.parts.values()].some((other) => other.differs)) return null;
    let catchup = this.parts.get(part);
    if (!catchup) this.parts.set(part, (catchup = new StreamCatchup(this.sent.get(part) ?? '')));
    return catchup.pass(delta);
  }
}
