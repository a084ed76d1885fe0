// Single-use tokens (password reset, invitations): random, sent once, stored only as a SHA-256 hash.
import { createHash, randomBytes } from "node:crypto";

export function newToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString("base64url");
  return { token, hash: hashToken(token) };
}

export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}
