// Webhook signing secrets at rest: kept to sign, so not hashed; with WEBHOOK_SECRET_KEY encrypted with
// AES-256-GCM (`enc:v1:<base64 of IV, tag, ciphertext>`). A value without the prefix predates the key.
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { config } from "../../config.ts";

const PREFIX = "enc:v1:";
/** Binds the ciphertext to its purpose (another column encrypted with the same key does not open as one). */
const AAD = Buffer.from("hrms webhook signing secret v1");

function keyBytes(key: string): Buffer {
  return /^[0-9a-fA-F]{64}$/.test(key) ? Buffer.from(key, "hex") : Buffer.from(key, "base64");
}

/** The stored form of a new secret: encrypted when WEBHOOK_SECRET_KEY is set, else as written. */
export function sealSecret(secret: string, key: string | undefined = config().webhookSecretKey): string {
  if (!key) return secret;
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", keyBytes(key), iv);
  cipher.setAAD(AAD);
  const body = Buffer.concat([cipher.update(secret, "utf8"), cipher.final()]);
  return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64");
}

/** The secret of a stored value; throws when it is encrypted and the key is missing or another. */
export function openSecret(stored: string, key: string | undefined = config().webhookSecretKey): string {
  if (!stored.startsWith(PREFIX)) return stored;
  if (!key) throw new Error("the webhook secret is encrypted and WEBHOOK_SECRET_KEY is not set");
  const raw = Buffer.from(stored.slice(PREFIX.length), "base64");
  const decipher = createDecipheriv("aes-256-gcm", keyBytes(key), raw.subarray(0, 12));
  decipher.setAAD(AAD);
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8");
}
