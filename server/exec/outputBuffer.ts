// Output kept from a command: everything up to the cap, else its first and last halves with a note
// of how much was cut between them, so a command that prints without end costs bounded memory.
export class OutputBuffer {
  private readonly head: Buffer[] = [];
  private headBytes = 0;
  private tail: Buffer[] = [];
  private tailBytes = 0;
  private total = 0;

  constructor(readonly capBytes: number) {}

  get totalBytes(): number {
    return this.total;
  }

  get truncated(): boolean {
    return this.total > this.headBytes + this.tailBytes;
  }

  push(chunk: Buffer): void {
    this.total += chunk.length;
    const headRoom = Math.ceil(this.capBytes / 2) - this.headBytes;
    if (headRoom > 0) {
      const taken = chunk.subarray(0, headRoom);
      this.head.push(taken);
      this.headBytes += taken.length;
      chunk = chunk.subarray(taken.length);
    }
    if (chunk.length === 0) return;
    this.tail.push(chunk);
    this.tailBytes += chunk.length;
    const tailCap = Math.floor(this.capBytes / 2);
    while (this.tailBytes > tailCap) {
      const first = this.tail[0]!;
      const excess = this.tailBytes - tailCap;
      if (first.length <= excess) {
        this.tail.shift();
        this.tailBytes -= first.length;
      } else {
        this.tail[0] = first.subarray(excess);
        this.tailBytes -= excess;
      }
    }
  }

  text(): string {
    const head = Buffer.concat(this.head).toString('utf8');
    const tail = Buffer.concat(this.tail).toString('utf8');
    if (!this.truncated) return head + tail;
    const cut = this.total - this.headBytes - this.tailBytes;
    return `${head}\n[… ${cut} bytes of output cut; ${this.total} in all …]\n${tail}`;
  }
}
