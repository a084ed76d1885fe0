// Password hashing exactly as specified: scrypt N=16384, r=8, p=1, 64-byte key, random 16-byte
// salt, stored as `scrypt$<hex-salt>$<hex-hash>`, compared in constant time.
import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from "node:crypto";

const N = 16384;
const r = 8;
const p = 1;
const KEY_LENGTH = 64;

function scrypt(password: string, salt: Buffer, opts: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scryptCb(password.normalize("NFC"), salt, KEY_LENGTH, opts, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, { N, r, p, maxmem: 64 * 1024 * 1024 });
  return `scrypt$${salt.toString("hex")}$${key.toString("hex")}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const m = /^scrypt\$([0-9a-f]+)\$([0-9a-f]+)$/.exec(stored);
  if (!m) return false;
  const expected = Buffer.from(m[2], "hex");
  if (expected.length !== KEY_LENGTH) return false;
  const key = await scrypt(password, Buffer.from(m[1], "hex"), { N, r, p, maxmem: 64 * 1024 * 1024 });
  return timingSafeEqual(key, expected);
}

/** A valid hash of a random password, verified against when the account does not exist (same timing). */
export const DUMMY_HASH = await hashPassword(randomBytes(16).toString("hex"));
