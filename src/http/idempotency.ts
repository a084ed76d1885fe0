// Idempotency-Key (draft-ietf-httpapi-idempotency-key-header) for every POST that declares it: claimed
// before the handler, the answer replayed to same-fingerprint retries (docs/decisions/0007-integrations-internals.md,
// "Idempotency-Key: retrying a POST").
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import type { Request, Response } from "express";
import { config } from "../config.ts";
import { logger } from "../log.ts";
import { AppError } from "../platform/errors.ts";
import { claimKey, type KeyRef, releaseKey, storeAnswer } from "../platform/idempotency.ts";
import { callerOf } from "./caller.ts";
import { errorBody, toAppError } from "./error-middleware.ts";
import type { AuthContext, UploadedFile } from "./types.ts";

export const IDEMPOTENCY_HEADER = "idempotency-key";
export const REPLAYED_HEADER = "Idempotent-Replayed";
const MAX_KEY_LENGTH = 255;

type Answer = { status: number; body: unknown } | { sent: true };

/** The draft's Structured Field string (`"<key>"`) or the bare value most clients send; 1 to 255 characters. */
export function idempotencyKeyOf(req: Request): string | undefined {
  const raw = req.headers[IDEMPOTENCY_HEADER];
  if (raw === undefined) return undefined;
  let key = (Array.isArray(raw) ? raw.join(", ") : raw).trim();
  if (key.length >= 2 && key.startsWith('"') && key.endsWith('"')) key = key.slice(1, -1);
  if (key.length < 1 || key.length > MAX_KEY_LENGTH)
    throw new AppError("validation_failed", `The Idempotency-Key header must be 1 to ${MAX_KEY_LENGTH} characters`, [
      { path: `headers.${IDEMPOTENCY_HEADER}`, message: `must be 1 to ${MAX_KEY_LENGTH} characters` },
    ]);
  return key;
}

/** JSON with every object's keys in code-unit order: equal for bodies that differ only in key order. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value && typeof value === "object") {
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

async function fileDigest(file: UploadedFile): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(file.path)) hash.update(chunk as Buffer);
  return `${file.fieldname}:${file.originalname}:${file.mimetype}:${hash.digest("hex")}`;
}

/** What makes two requests "the same request": method, path with query, body, files. */
async function fingerprintOf(req: Request, files: UploadedFile[]): Promise<string> {
  const hash = createHash("sha256");
  hash.update(`${req.method} ${req.originalUrl}\n`);
  hash.update(canonicalJson(req.body ?? null));
  for (const f of files) hash.update(`\n${await fileDigest(f)}`);
  return hash.digest("hex");
}

/** Answers kept for retries: successes and the request's own errors, not 5xx, 408 or 429. */
const kept = (status: number) => status < 500 && status !== 408 && status !== 429;

/** The first request with a key runs `run`, a retry gets the stored answer; called in the tenant's context. */
export async function idempotently(
  req: Request,
  res: Response,
  auth: AuthContext,
  operationId: string,
  files: UploadedFile[],
  run: () => Promise<Answer>,
): Promise<Answer> {
  const key = idempotencyKeyOf(req);
  if (key === undefined) return run();
  const ref: KeyRef = { caller: callerOf(auth).key, key };
  const claim = await claimKey(ref, await fingerprintOf(req, files), operationId, config().idempotencyKeyTtlHours);
  if (claim.kind === "reused")
    throw new AppError("idempotency_key_reused", "This Idempotency-Key was used with another request; use a new key for a new request", [
      { path: `headers.${IDEMPOTENCY_HEADER}`, message: "was used with another request" },
    ]);
  if (claim.kind === "in_progress")
    throw new AppError("request_in_progress", "A request with this Idempotency-Key is still in progress; retry shortly");
  if (claim.kind === "replay") {
    res.setHeader(REPLAYED_HEADER, "true");
    for (const [name, value] of Object.entries(claim.answer.headers)) res.setHeader(name, value);
    return { status: claim.answer.status, body: JSON.parse(claim.answer.body) };
  }
  let answer: Answer;
  try {
    answer = await run();
  } catch (err) {
    const e = toAppError(err);
    await settle(ref, kept(e.status) ? { status: e.status, body: JSON.stringify(errorBody(e)), headers: { ...e.headers } } : null);
    throw err;
  }
  await settle(ref, "sent" in answer ? null : { status: answer.status, body: JSON.stringify(answer.body), headers: {} });
  return answer;
}

/** Stores the answer (or releases the key); a failure to do so is logged, the answer still goes out. */
async function settle(ref: KeyRef, answer: { status: number; body: string; headers: Record<string, string> } | null) {
  try {
    if (answer) await storeAnswer(ref, answer);
    else await releaseKey(ref);
  } catch (err) {
    logger.warn({ err: (err as Error)?.message }, "idempotency key: could not store the answer");
  }
}
