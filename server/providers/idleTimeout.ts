// Notices a stream that has gone quiet. The wires touch it on every raw server-sent event (pings
// and argument deltas included, not only those that become model events), and one timer compares
// against the time of the last touch instead of being re-armed thousands of times per response.

export class IdleTimeout {
  private last = Date.now();
  private timer: NodeJS.Timeout | null;
  private fired = false;

  constructor(
    private readonly limitMs: number,
    private readonly onIdle: () => void,
  ) {
    this.timer = setTimeout(this.check, limitMs);
  }

  /** Something arrived: the quiet period starts again. */
  readonly touch = (): void => {
    this.last = Date.now();
  };

  get expired(): boolean {
    return this.fired;
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private readonly check = (): void => {
    const quiet = Date.now() - this.last;
    if (quiet < this.limitMs) {
      this.timer = setTimeout(this.check, this.limitMs - quiet);
      return;
    }
    this.timer = null;
    this.fired = true;
    this.onIdle();
  };
}
