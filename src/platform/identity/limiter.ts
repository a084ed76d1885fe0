// Attempt limits of the identity flows (docs/security.md; the arithmetic and the 429:
// docs/operations.md, "Limits and the 429"): failed sign-ins per account and client, per account
// across unknown clients and per IP; reset requests and signups per IP, where every attempt counts;
// signup and reset e-mails per address; the owner's notice of a pause. Counted by the exact backend
// of the window store (src/db/windows.ts): every server process shares the counts, and they survive
// restarts. A successful sign-in clears its client's counter for the account; a password reset all
// of the account's.
import { config } from "../../config.ts";
import { exactWindows, type Refusal, type WindowLimit } from "../../db/windows.ts";
import { clientKey } from "../../lib/ip.ts";
import type { AppError } from "../errors.ts";
import { refusal } from "../limits.ts";

/** One attempt limit: its policy name (`account`), its counters' key prefix (`account:`), its words. */
export class AttemptLimit {
  /**
   * `max`: a number, or read at each use (a setting of the configuration in force). `keyOf` turns
   * the key given into the one counted (the per-client limits: `clientKey`, IPv6 by its /64).
   */
  constructor(
    readonly policy: string,
    private readonly maxOf: number | (() => number),
    readonly windowSeconds: number,
    private readonly words: { what: string; per: string },
    private readonly keyOf: (key: string) => string = (key) => key,
  ) {}

  get max(): number {
    return typeof this.maxOf === "number" ? this.maxOf : this.maxOf();
  }

  /** The window limit of `key` (its counter is `<policy>:<key>`). */
  of(key: string): WindowLimit {
    return {
      key: `${this.policy}:${this.keyOf(key)}`,
      policy: this.policy,
      max: this.max,
      windowSeconds: this.windowSeconds,
      ...this.words,
    };
  }

  /** Counts an attempt (refused ones too); the refusal when this one is past the limit, else null. */
  async attempt(key: string): Promise<Refusal | null> {
    return (await exactWindows.count([this.of(key)])).refused;
  }

  /** Counts an attempt, throwing the 429 when it is past the limit. */
  async attemptOrRefuse(key: string): Promise<void> {
    const refused = await this.attempt(key);
    if (refused) throw refusal(refused);
  }

  /** The refusal the next attempt would get now, or null (counts nothing). */
  async blocked(key: string): Promise<Refusal | null> {
    return (await exactWindows.check([this.of(key)])).refused;
  }

  async clear(key: string): Promise<void> {
    await exactWindows.clear([this.of(key).key]);
  }
}

/** The 429 of the limit (and key) that blocks longest, or null when none blocks (sign-in: the address and the account). */
export async function blockedBy(checks: readonly (readonly [AttemptLimit, string])[]): Promise<AppError | null> {
  const { refused } = await exactWindows.check(checks.map(([limit, key]) => limit.of(key)));
  return refused ? refusal(refused) : null;
}

/** Counts a failure against each limit (and key) in one statement; each one's count in its window, this one included. */
export async function countFailures(checks: readonly (readonly [AttemptLimit, string])[]): Promise<number[]> {
  const { states } = await exactWindows.count(checks.map(([limit, key]) => limit.of(key)));
  return states.map((s) => s.used);
}

const WINDOW_S = 15 * 60;
/**
 * Failed sign-ins per account and client (`<email>|<client>`: a known browser of the account, or
 * else its IP key): the client that failed is paused for this account, others are not
 * (src/platform/identity/signin-guard.ts).
 */
export const accountLimiter = new AttemptLimit("account", () => config().signinMaxFailuresPerAccount, WINDOW_S, {
  what: "Sign-in",
  per: "failed sign-ins to this account from this client per 15 minutes",
});
/** Failed sign-ins per account from every client it does not know, together (guessing from many addresses). */
export const accountAllLimiter = new AttemptLimit("account-all", () => config().signinMaxFailuresPerAccountAllClients, WINDOW_S, {
  what: "Sign-in",
  per: "failed sign-ins to this account from unknown clients per 15 minutes",
});
/** The owner's notice of a sign-in pause: at most one per account per hour. */
export const lockoutNoticeLimiter = new AttemptLimit("lockout-mail", 1, 3600, { what: "Pause notice", per: "mail per account per hour" });

/** Lifts every sign-in pause of the account (a password reset): per client and across clients. */
export async function clearAccountPauses(email: string): Promise<void> {
  await exactWindows.clear([accountAllLimiter.of(email).key], [accountLimiter.of(`${email}|`).key]);
}
/** Failed sign-ins per client (IPv4 address, IPv6 /64: src/lib/ip.ts), across accounts. */
export const ipLimiter = new AttemptLimit(
  "ip",
  () => config().signinMaxFailuresPerIp,
  WINDOW_S,
  { what: "Sign-in", per: "failed sign-ins from this client IP per 15 minutes" },
  clientKey,
);
/** Reset requests per client (the answer is always 200, so this only bounds mail volume). */
export const resetRequestLimiter = new AttemptLimit(
  "reset-ip",
  () => config().forgotPasswordMaxPerIp,
  WINDOW_S,
  { what: "Password reset", per: "requests per client IP per 15 minutes" },
  clientKey,
);
/** Signups per client, every attempt (the setting of the configuration in force). */
export const signupLimiter = new AttemptLimit(
  "signup-ip",
  () => config().signupMaxPerIp,
  WINDOW_S,
  { what: "Signup", per: "signups per client IP per 15 minutes" },
  clientKey,
);
/** Signup e-mails (confirmation or notice) per address: bounds what signups can send to one mailbox. */
export const SIGNUP_MAILS_PER_ADDRESS = 3;
export const signupMailLimiter = new AttemptLimit("signup-mail", SIGNUP_MAILS_PER_ADDRESS, WINDOW_S, {
  what: "Signup mail",
  per: "mails per address per 15 minutes",
});

/**
 * Password-reset e-mails per address (whoever asks, from any client): bounds what reset requests can
 * send to one mailbox. A link is valid for an hour, longer than the window, so while requests are
 * refused the links mailed in the window still work for the mailbox's owner.
 */
export const RESET_MAILS_PER_ADDRESS = 3;
export const resetMailLimiter = new AttemptLimit("reset-mail", RESET_MAILS_PER_ADDRESS, WINDOW_S, {
  what: "Reset mail",
  per: "mails per address per 15 minutes",
});
