// Attempt limiting (failed sign-ins per account and client, per account across unknown clients and
// per IP; reset requests and signups per IP, where every attempt counts; signup and reset e-mails
// per address), kept in PostgreSQL so every server
// instance shares the counts and they survive restarts. A counter covers a fixed window that
// starts at its first count; once `max` are in the window the key is refused (429 with
// Retry-After) until the window ends. A successful sign-in clears its client's counter for the
// account; a password reset all of the account's.
import { config } from "../../config.ts";
import { clientKey } from "../../lib/ip.ts";
import { systemDb } from "../../db/client.ts";
import { type AppError, type RateLimitPolicy, rateLimited } from "../errors.ts";

export class FailureLimiter {
  /**
   * `max`: a number, or read at each use (a setting of the configuration in force). `keyOf` turns
   * the key given into the one counted (the per-client limiters: `clientKey`, IPv6 by its /64).
   */
  constructor(
    readonly prefix: string,
    private readonly maxOf: number | (() => number),
    readonly windowMs: number,
    private readonly keyOf: (key: string) => string = (key) => key,
  ) {}

  /** The counter's row key for `key`. */
  private rowKey(key: string): string {
    return this.prefix + this.keyOf(key);
  }

  get max(): number {
    return typeof this.maxOf === "number" ? this.maxOf : this.maxOf();
  }

  /** The limit as a 429 states it (RateLimit-Policy): named after the prefix (`account:` -> `account`). */
  get policy(): RateLimitPolicy {
    return { name: this.prefix.replace(/:$/, ""), limit: this.max, windowSeconds: this.windowMs / 1000 };
  }

  /** The 429 of this limiter: retry after `wait` seconds (Retry-After and the RateLimit headers of its policy). */
  refusal(wait: number): AppError {
    return rateLimited(wait, this.policy);
  }

  /** Seconds until the key may try again, or 0 when it is not blocked. */
  async retryAfter(key: string): Promise<number> {
    const rows = await systemDb.$queryRaw<{ failures: number; window_start: Date }[]>`
      SELECT failures, window_start FROM auth_throttle WHERE key = ${this.rowKey(key)}`;
    const row = rows[0];
    if (!row) return 0;
    const ends = row.window_start.getTime() + this.windowMs;
    if (ends <= Date.now() || row.failures < this.max) return 0;
    return Math.max(1, Math.ceil((ends - Date.now()) / 1000));
  }

  /**
   * Counts an attempt (in one statement, so concurrent attempts cannot all slip under the limit)
   * and returns the seconds until the key may try again when it is over the limit, else 0.
   */
  async attempt(key: string): Promise<number> {
    const row = await this.count(key);
    if (row.failures <= this.max) return 0;
    return Math.max(1, Math.ceil((row.window_start.getTime() + this.windowMs - Date.now()) / 1000));
  }

  /** Counts a failure; the key's count in its window, this one included. */
  async fail(key: string): Promise<number> {
    return (await this.count(key)).failures;
  }

  /** One more in the key's window (a new window when the last one has ended); the counter as it is now. */
  private async count(key: string): Promise<{ failures: number; window_start: Date }> {
    const windowSeconds = this.windowMs / 1000;
    const [row] = await systemDb.$queryRaw<{ failures: number; window_start: Date }[]>`
      INSERT INTO auth_throttle (key, failures, window_start) VALUES (${this.rowKey(key)}, 1, now())
      ON CONFLICT (key) DO UPDATE SET
        failures = CASE WHEN auth_throttle.window_start + make_interval(secs => ${windowSeconds})
          <= now() THEN 1 ELSE auth_throttle.failures + 1 END,
        window_start = CASE WHEN auth_throttle.window_start + make_interval(secs => ${windowSeconds})
          <= now() THEN now() ELSE auth_throttle.window_start END
      RETURNING failures, window_start`;
    return row;
  }

  async clear(key: string): Promise<void> {
    await systemDb.$executeRaw`DELETE FROM auth_throttle WHERE key = ${this.rowKey(key)}`;
  }
}

/**
 * The 429 of the first of `checks` (limiter and key) that blocks longest, or null when none blocks
 * (sign-in: the address and the account).
 */
export async function blockedBy(checks: readonly (readonly [FailureLimiter, string])[]): Promise<AppError | null> {
  let worst: { limiter: FailureLimiter; wait: number } | null = null;
  for (const [limiter, key] of checks) {
    const wait = await limiter.retryAfter(key);
    if (wait > 0 && (!worst || wait > worst.wait)) worst = { limiter, wait };
  }
  return worst ? worst.limiter.refusal(worst.wait) : null;
}

const WINDOW_MS = 15 * 60_000;
/**
 * Failed sign-ins per account and client (`<email>|<client>`: a known browser of the account, or
 * else its IP key): the client that failed is paused for this account, others are not
 * (src/platform/identity/signin-guard.ts).
 */
export const accountLimiter = new FailureLimiter("account:", () => config().signinMaxFailuresPerAccount, WINDOW_MS);
/** Failed sign-ins per account from every client it does not know, together (guessing from many addresses). */
export const accountAllLimiter = new FailureLimiter("account-all:", () => config().signinMaxFailuresPerAccountAllClients, WINDOW_MS);
/** The owner's notice of a sign-in pause: at most one per account per hour. */
export const lockoutNoticeLimiter = new FailureLimiter("lockout-mail:", 1, 60 * 60_000);

/** Lifts every sign-in pause of the account (a password reset): per client and across clients. */
export async function clearAccountPauses(email: string): Promise<void> {
  await systemDb.$executeRaw`
    DELETE FROM auth_throttle WHERE key = ${`account-all:${email}`} OR starts_with(key, ${`account:${email}|`})`;
}
/** Failed sign-ins per client (IPv4 address, IPv6 /64: src/lib/ip.ts), across accounts. */
export const ipLimiter = new FailureLimiter("ip:", () => config().signinMaxFailuresPerIp, WINDOW_MS, clientKey);
/** Reset requests per client (the answer is always 200, so this only bounds mail volume). */
export const resetRequestLimiter = new FailureLimiter("reset-ip:", () => config().forgotPasswordMaxPerIp, WINDOW_MS, clientKey);
/** Signups per client, every attempt (the setting of the configuration in force). */
export const signupLimiter = new FailureLimiter("signup-ip:", () => config().signupMaxPerIp, WINDOW_MS, clientKey);
/** Signup e-mails (confirmation or notice) per address: bounds what signups can send to one mailbox. */
export const SIGNUP_MAILS_PER_ADDRESS = 3;
export const signupMailLimiter = new FailureLimiter("signup-mail:", SIGNUP_MAILS_PER_ADDRESS, WINDOW_MS);

/**
 * Password-reset e-mails per address (whoever asks, from any client): bounds what reset requests can
 * send to one mailbox. A link is valid for an hour, longer than the window, so while requests are
 * refused the links mailed in the window still work for the mailbox's owner.
 */
export const RESET_MAILS_PER_ADDRESS = 3;
export const resetMailLimiter = new FailureLimiter("reset-mail:", RESET_MAILS_PER_ADDRESS, WINDOW_MS);

/** Removes expired counters (run by the scheduled job). */
export async function pruneThrottle(): Promise<number> {
  return systemDb.$executeRaw`DELETE FROM auth_throttle WHERE window_start < now() - interval '1 day'`;
}
