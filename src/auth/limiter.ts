// Failed sign-in limiting, per account and per IP, over a sliding window. Only failures count;
// a success clears the account's failures. (In-process: behind several instances each one limits
// on its own, which still bounds guessing to instances x limit per window.)
export class FailureLimiter {
  private failures = new Map<string, number[]>();
  constructor(
    readonly max: number,
    readonly windowMs: number,
  ) {}

  /** Seconds until the key may try again, or 0 when it is not blocked. */
  retryAfter(key: string, now = Date.now()): number {
    const list = this.prune(key, now);
    if (list.length < this.max) return 0;
    return Math.ceil((list[0] + this.windowMs - now) / 1000);
  }

  fail(key: string, now = Date.now()): void {
    const list = this.prune(key, now);
    list.push(now);
    this.failures.set(key, list);
    if (this.failures.size > 100_000) this.sweep(now);
  }

  clear(key: string): void {
    this.failures.delete(key);
  }

  reset(): void {
    this.failures.clear();
  }

  private prune(key: string, now: number): number[] {
    const list = (this.failures.get(key) ?? []).filter((t) => t > now - this.windowMs);
    if (list.length) this.failures.set(key, list);
    else this.failures.delete(key);
    return list;
  }

  private sweep(now: number): void {
    for (const key of this.failures.keys()) this.prune(key, now);
  }
}

export const accountLimiter = new FailureLimiter(Number(process.env.SIGNIN_MAX_FAILURES_PER_ACCOUNT ?? 5), 15 * 60_000);
export const ipLimiter = new FailureLimiter(Number(process.env.SIGNIN_MAX_FAILURES_PER_IP ?? 30), 15 * 60_000);
