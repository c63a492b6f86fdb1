// One output stream of a command/exec process, kept up to a byte cap (the first bytes win, as the
// reference does): what to keep of each chunk, and whether this chunk is where the cap was reached.

/**
 * Output streamed to clients per command, however much it prints. Past it the output is still read
 * (and what the item or the result keeps is kept) but no longer sent: a command that prints without
 * end would otherwise send all of it to every client, which can show little of it anyway.
 */
export const STREAMED_OUTPUT_BUDGET_BYTES = 4 * 1024 * 1024;

export class StreamCapture {
  private kept = 0;
  private readonly chunks: Buffer[] = [];
  reached = false;

  /** `cap` null: no cap. `keep` false: the bytes are streamed, not kept for the result. */
  constructor(
    private readonly cap: number | null,
    private readonly keep: boolean,
  ) {}

  take(chunk: Buffer): { bytes: Buffer; capReached: boolean } | null {
    if (this.reached) return null;
    let bytes = chunk;
    if (this.cap !== null && this.kept + chunk.length >= this.cap) {
      bytes = chunk.subarray(0, this.cap - this.kept);
      this.reached = this.kept + chunk.length > this.cap;
    }
    this.kept += bytes.length;
    if (this.keep) this.chunks.push(bytes);
    return { bytes, capReached: this.reached };
  }

  text(): string {
    return Buffer.concat(this.chunks).toString('utf8');
  }
}
