// Attempt limits of the identity flows, counted by the exact backend of the window store
// (src/db/windows.ts): docs/operations.md, "Limits and the 429"; docs/security.md, "Sign-in lockout".
import { config } from "../../config.ts";
import { exactWindows, type Refusal, type WindowLimit } from "../../db/windows.ts";
import { clientKey } from "../../lib/ip.ts";
import type { AppError } from "../errors.ts";
import { refusal } from "../limits.ts";

/** One attempt limit: its policy name (`account`), its counters' key prefix (`account:`), its words. */
export class AttemptLimit {
  /** `max`: fixed, or read at each use; `keyOf` turns the key given into the one counted (`clientKey`). */
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

/**
 * A 15-minute limit; `per` completes the 429's words ("… per 15 minutes"). `perClientIp` counts by
 * client (IPv4 address, IPv6 /64: src/lib/ip.ts); a number `max` is fixed, a function reads the
 * configuration in force at each use.
 */
function quarterHour(policy: string, max: number | (() => number), what: string, per: string, perClientIp = false): AttemptLimit {
  const keyOf = perClientIp ? clientKey : undefined;
  return new AttemptLimit(policy, max, 15 * 60, { what, per: `${per} per 15 minutes` }, keyOf);
}

/** Failed sign-ins per account and client (`<email>|<client>`): only the client that failed is paused (signin-guard.ts). */
export const accountLimiter = quarterHour(
  "account",
  () => config().signinMaxFailuresPerAccount,
  "Sign-in",
  "failed sign-ins to this account from this client",
);
/** Failed sign-ins per account from every client it does not know, together (guessing from many addresses). */
export const accountAllLimiter = quarterHour(
  "account-all",
  () => config().signinMaxFailuresPerAccountAllClients,
  "Sign-in",
  "failed sign-ins to this account from unknown clients",
);
/** Failed sign-ins per client, across accounts. */
export const ipLimiter = quarterHour("ip", () => config().signinMaxFailuresPerIp, "Sign-in", "failed sign-ins from this client IP", true);
/** Reset requests per client (the answer is always 200, so this only bounds mail volume). */
export const resetRequestLimiter = quarterHour(
  "reset-ip",
  () => config().forgotPasswordMaxPerIp,
  "Password reset",
  "requests per client IP",
  true,
);
/** Signups per client, every attempt. */
export const signupLimiter = quarterHour("signup-ip", () => config().signupMaxPerIp, "Signup", "signups per client IP", true);

/** Signup e-mails (confirmation or notice) per address: bounds what signups can send to one mailbox. */
export const SIGNUP_MAILS_PER_ADDRESS = 3;
export const signupMailLimiter = quarterHour("signup-mail", SIGNUP_MAILS_PER_ADDRESS, "Signup mail", "mails per address");
/**
 * Password-reset e-mails per address, whoever asks. A link is valid for an hour, longer than the
 * window, so the links mailed before a refusal still work for the mailbox's owner.
 */
export const RESET_MAILS_PER_ADDRESS = 3;
export const resetMailLimiter = quarterHour("reset-mail", RESET_MAILS_PER_ADDRESS, "Reset mail", "mails per address");

/** The owner's notice of a sign-in pause: at most one per account per hour. */
export const lockoutNoticeLimiter = new AttemptLimit("lockout-mail", 1, 3600, { what: "Pause notice", per: "mail per account per hour" });

/** Lifts every sign-in pause of the account (a password reset): per client and across clients. */
export async function clearAccountPauses(email: string): Promise<void> {
  await exactWindows.clear([accountAllLimiter.of(email).key], [accountLimiter.of(`${email}|`).key]);
}
