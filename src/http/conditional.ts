// Conditional requests (RFC 9110 §13) where the bundle declares them (`x-etag`, `x-if-match`); check and write
// under one lock, so two writes based on one version cannot both pass (docs/decisions/0007-integrations-internals.md,
// "Conditional requests: ETag, If-Match, If-None-Match").
import { createHash } from "node:crypto";
import type { Request, Response } from "express";
import { withLock } from "../db/primitives.ts";
import { AppError } from "../platform/errors.ts";
import { callerOf } from "./caller.ts";
import type { AuthContext } from "./types.ts";

type Answer = { status: number; body: unknown; json?: string } | { sent: true };

/** A record of an answer's `data` (an object, not a list): the one that carries `version`. */
const recordOf = (body: unknown): Record<string, unknown> | null => {
  const data = (body as { data?: unknown } | null)?.data;
  return data && typeof data === "object" && !Array.isArray(data) ? (data as Record<string, unknown>) : null;
};

/** The JSON the entity tag is the hash of: the answer's `data` without its own `version` (which is the tag). */
function taggedJson(body: unknown): string {
  const data = (body as { data?: unknown } | null)?.data;
  const record = recordOf(body);
  const { version: _, ...rest } = record ?? {};
  return JSON.stringify(record ? rest : (data ?? null));
}

const tagOf = (json: string) => `"${createHash("sha256").update(json).digest("base64url").slice(0, 22)}"`;

/** The strong entity tag of a success answer's `data` (without its own `version`, which is the tag). */
export function entityTag(body: unknown): string {
  return tagOf(taggedJson(body));
}

/**
 * A GET's answer with its tag and `version`, its `json` built from the tagged JSON instead of a second
 * stringify; left out where the bytes could differ from `JSON.stringify(body)`.
 */
export function taggedAnswer<A extends { status: number; body: unknown }>(answer: A): { tag: string; answer: A & { json?: string } } {
  const dataJson = taggedJson(answer.body);
  const tag = tagOf(dataJson);
  const record = recordOf(answer.body);
  if (!record) return { tag, answer };
  const versioned = withVersion(answer, tag);
  const { data: _, ...others } = answer.body as Record<string, unknown>;
  if (Object.keys(answer.body as object)[0] !== "data" || "version" in record) return { tag, answer: versioned };
  const fields = dataJson === "{}" ? "{" : `${dataJson.slice(0, -1)},`;
  const rest = JSON.stringify(others);
  const json = `{"data":${fields}"version":${JSON.stringify(tag.slice(1, -1))}}${rest === "{}" ? "}" : `,${rest.slice(1)}`}`;
  return { tag, answer: { ...versioned, json } };
}

/** `version` = the tag unquoted, so `If-Match` works from the body alone; a copy (the handler may keep its data). */
function withVersion<A extends { status: number; body: unknown }>(answer: A, tag: string): A {
  const record = recordOf(answer.body);
  if (!record) return answer;
  return { ...answer, body: { ...(answer.body as object), data: { ...record, version: tag.slice(1, -1) } } };
}

/** The entity tags of an If-Match / If-None-Match field (`*` as itself); null when absent. */
function tagsOf(value: string | undefined): string[] | null {
  if (value === undefined) return null;
  return value
    .split(",")
    .map((t) => t.trim())
    .filter(Boolean);
}

const opaque = (tag: string) => (tag.startsWith("W/") ? tag.slice(2) : tag);

/** If-None-Match (weak comparison): does the client hold the current representation? */
export function noneMatch(header: string | undefined, current: string): boolean {
  const tags = tagsOf(header);
  return tags?.some((t) => t === "*" || opaque(t) === current) ?? false;
}

/** If-Match (strong comparison; a weak tag never matches). */
export function matches(tags: string[], current: string | null): boolean {
  if (current === null) return false;
  return tags.some((t) => t === "*" || t === current);
}

/** A GET of one resource: the tag on its 200, a 304 for a current If-None-Match. */
export async function tagged(req: Request, res: Response, run: () => Promise<Answer>): Promise<Answer> {
  const answer = await run();
  if ("sent" in answer || answer.status !== 200) return answer;
  const { tag, answer: withTag } = taggedAnswer(answer);
  res.setHeader("ETag", tag);
  if (!noneMatch(req.headers["if-none-match"], tag)) return withTag;
  res.status(304).end();
  return { sent: true };
}

/** Is this write refused for want of If-Match (428)? Only for API credentials, on `x-if-match: required`. */
export function preconditionRequired(auth: AuthContext, required: boolean, ifMatch: string | undefined): boolean {
  return required && ifMatch === undefined && callerOf(auth).kind === "credential";
}

export interface ConditionalWrite {
  required: boolean;
  /** The current representation: the path's GET operation for these path parameters (its answer). */
  read: () => Promise<Answer>;
}

/** A write of a resource with `x-if-match`: If-Match checked and the write run as one step. */
export async function conditionally(
  req: Request,
  res: Response,
  auth: AuthContext,
  spec: ConditionalWrite,
  run: () => Promise<Answer>,
): Promise<Answer> {
  const header = req.headers["if-match"];
  if (preconditionRequired(auth, spec.required, header))
    throw new AppError("precondition_required", "This write needs If-Match with the ETag of the version it is based on");
  const tags = tagsOf(header);
  if (!tags) return run();
  // one connection for the read and the write: no request holds one while it waits for another
  return withLock({ kind: "if-match", tenantId: auth.tenantId, path: req.path }, async () => {
    const current = await currentTag(spec);
    if (!matches(tags, current)) {
      if (current === null) throw new AppError("precondition_failed", "The resource does not exist, so no version of it matches If-Match");
      throw new AppError(
        "precondition_failed",
        "The resource has changed since the version in If-Match; read it again and retry with its ETag",
        [{ path: "headers.if-match", message: `the current version is ${current}` }],
        { ETag: current },
      );
    }
    const answer = await run();
    if (!("sent" in answer) && answer.status < 300) {
      const after = await currentRead(spec);
      if (after) {
        res.setHeader("ETag", after.tag);
        // the write answered the record itself (the same fields as its GET): its version too
        if (sameFields(recordOf(answer.body), recordOf(after.body))) return withVersion(answer, after.tag);
      }
    }
    return answer;
  });
}

/** The tag of the resource as its GET answers it now, or null when that GET does not answer it. */
async function currentTag(spec: ConditionalWrite): Promise<string | null> {
  return (await currentRead(spec))?.tag ?? null;
}

/** The resource as its GET answers it now, with its tag, or null when that GET does not answer it. */
async function currentRead(spec: ConditionalWrite): Promise<{ tag: string; body: unknown } | null> {
  try {
    const answer = await spec.read();
    return "sent" in answer || answer.status !== 200 ? null : { tag: entityTag(answer.body), body: answer.body };
  } catch (err) {
    if (err instanceof AppError && err.status < 500) return null;
    throw err;
  }
}

const fieldsOf = (r: Record<string, unknown>) =>
  Object.keys(r)
    .filter((k) => k !== "version")
    .sort()
    .join();
const sameFields = (a: Record<string, unknown> | null, b: Record<string, unknown> | null) => !!a && !!b && fieldsOf(a) === fieldsOf(b);
