// When to bring a crashed server back: a few times, but not in a crash loop. Pure, so the rule is
// tested without processes: at most `maxRestarts` within `windowMs`.
export class RestartPolicy {
  private readonly restarts: number[] = [];

  constructor(
    private readonly maxRestarts = 4,
    private readonly windowMs = 3 * 60_000,
  ) {}

  /** Records an unexpected exit at `now`; true when the server should be restarted. */
  allow(now: number): boolean {
    while (this.restarts.length > 0 && now - this.restarts[0]! >= this.windowMs) this.restarts.shift();
    if (this.restarts.length >= this.maxRestarts) return false;
    this.restarts.push(now);
    return true;
  }

  /** A deliberate restart (the user asked) starts counting afresh. */
  reset(): void {
    this.restarts.length = 0;
  }
}
