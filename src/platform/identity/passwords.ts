// Passwords: scrypt (r = 8, p = 1, 64-byte key, random 16-byte salt) at the configured cost
// (PASSWORD_HASH_COST, log2 of N), stored as `scrypt$ln=<cost>,r=8,p=1$<hex-salt>$<hex-hash>` so each hash
// verifies with its own parameters; the first format, `scrypt$<hex-salt>$<hex-hash>`, is cost 14.
// Compared in constant time. A new password must not be guessable (zxcvbn-ts with its offline common
// and breached list) nor contain the e-mail's local part.
import { randomBytes, scrypt as scryptCb, timingSafeEqual } from "node:crypto";
import { ZxcvbnFactory } from "@zxcvbn-ts/core";
import { adjacencyGraphs, dictionary } from "@zxcvbn-ts/language-common";
import { config } from "../../config.ts";
import { nextTurn } from "../../lib/yielding.ts";
import { invalidField } from "../errors.ts";

const r = 8;
const p = 1;
const KEY_LENGTH = 64;
/** The cost of a hash in the first format, which names no parameters. */
const FIRST_FORMAT_COST = 14;
const FORMAT = /^scrypt\$(?:ln=(\d{1,2}),r=8,p=1\$)?([0-9a-f]{32})\$([0-9a-f]{128})$/;

function scrypt(password: string, salt: Buffer, cost: number): Promise<Buffer> {
  const N = 2 ** cost;
  return new Promise((resolve, reject) =>
    scryptCb(password.normalize("NFC"), salt, KEY_LENGTH, { N, r, p, maxmem: 256 * N * r }, (err, key) =>
      err ? reject(err) : resolve(key),
    ),
  );
}

/** A hash of `password` at the configured cost. */
export async function hashPassword(password: string, cost = config().passwordHashCost): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, cost);
  return `scrypt$ln=${cost},r=${r},p=${p}$${salt.toString("hex")}$${key.toString("hex")}`;
}

/** The cost a stored hash was made with, or null for a string that is no hash of ours. */
function costOf(stored: string): number | null {
  const m = FORMAT.exec(stored);
  if (!m) return null;
  const cost = m[1] === undefined ? FIRST_FORMAT_COST : Number(m[1]);
  return cost >= 10 && cost <= 17 ? cost : null;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const cost = costOf(stored);
  if (cost === null) return false;
  const [salt, expected] = stored.split("$").slice(-2);
  const key = await scrypt(password, Buffer.from(salt, "hex"), cost);
  return timingSafeEqual(key, Buffer.from(expected, "hex"));
}

/** Whether a verified hash should be made again: another cost than the configured one, or the first format. */
export function needsRehash(stored: string): boolean {
  return !stored.startsWith(`scrypt$ln=${config().passwordHashCost},`);
}

const dummies = new Map<number, Promise<string>>();
/** A valid hash of a random password at the configured cost: verified against when the account does not exist (same timing). */
export function dummyHash(): Promise<string> {
  const cost = config().passwordHashCost;
  const known = dummies.get(cost);
  if (known) return known;
  const hash = hashPassword(randomBytes(16).toString("hex"), cost);
  dummies.set(cost, hash);
  return hash;
}

/** The lowest zxcvbn score accepted: 2 = more than 10^6 guesses (0 and 1: common passwords and simple patterns). */
export const MIN_PASSWORD_SCORE = 2;
/**
 * zxcvbn scores the first this many characters only: its matching grows faster than linearly with
 * the length (a 200-character run of l33t characters took a second), and whatever follows 32
 * characters that are hard to guess cannot make them easier to guess.
 */
export const SCORED_LENGTH = 32;

// Built once at start (~75 ms: the dictionaries are ranked); `l33tMaxSubstitutions` bounds the
// l33t variants tried per match (the default, 100, cost up to ~100 ms on long runs of l33t characters).
const strength = new ZxcvbnFactory({
  dictionary,
  graphs: adjacencyGraphs,
  maxLength: SCORED_LENGTH,
  l33tMaxSubstitutions: 16,
});
// compiled by the first check: done here, at start, rather than in the first request that sets a password
strength.check("P@$$w0rd-1990-qwerty-12345");

const WHY: Record<string, string> = {
  topTen: "is one of the most common passwords",
  topHundred: "is one of the most common passwords",
  common: "is a commonly used password",
  similarToCommon: "is too similar to a commonly used password",
  pwned: "appears in data breaches",
  straightRow: "is a row of keys on the keyboard",
  keyPattern: "is a short keyboard pattern",
  simpleRepeat: "repeats characters (like aaaaaaaa)",
  extendedRepeat: "repeats a short pattern (like abcabcabc)",
  sequences: "is a sequence (like 12345678 or abcdefgh)",
  recentYears: "is built on a recent year",
  dates: "is built on a date",
  wordByItself: "is a single common word",
  namesByThemselves: "is a name",
  commonNames: "is a common name",
  userInputs: "is built on your name or e-mail address",
};

/** Why `password` is too easy to guess, or null when it is acceptable. `email`/`name`: the account's. */
export function passwordWeakness(password: string, account: { email?: string | null; name?: string | null } = {}): string | null {
  const pw = password.normalize("NFC");
  const email = (account.email ?? "").toLowerCase();
  const local = email.slice(0, Math.max(0, email.indexOf("@")));
  const lower = pw.toLowerCase();
  for (const part of new Set([local, local.split("+")[0]]))
    if (part.length >= 3 && lower.includes(part)) return "contains the name part of your e-mail address";
  const inputs = [email, local, ...(account.name ?? "").toLowerCase().split(/\s+/)].filter((w) => w.length >= 3);
  const result = strength.check(pw, inputs);
  if (result.score >= MIN_PASSWORD_SCORE) return null;
  return WHY[result.feedback.warning ?? ""] ?? "is too easy to guess";
}

// one check at a time, each in its own turn of the event loop: up to ~30 ms of CPU each, and checks that
// arrive together would otherwise hold the loop for all of them
let scoring: Promise<unknown> = Promise.resolve();
function inTurn<T>(fn: () => T): Promise<T> {
  const run = scoring.then(nextTurn).then(fn);
  scoring = run.catch(() => undefined);
  return run;
}

/** Refuses (400 `validation_failed` at `path`) a password too easy to guess (passwordWeakness). */
export async function assertStrongPassword(
  password: string,
  account: { email?: string | null; name?: string | null } = {},
  path = "body.password",
): Promise<void> {
  const why = await inTurn(() => passwordWeakness(password, account));
  if (why) throw invalidField(path, `${why}; choose a longer or less predictable password (a few unrelated words work well)`);
}
