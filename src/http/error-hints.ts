// What an error says to send instead: the nearest known field or parameter and the list of them, that a
// well-formed date does not exist (2026-02-30), the media types a 415's operation takes.
import type { Request } from "express";
import type { AppError, ErrorDetail } from "../platform/errors.ts";
import { apiDocument, operationOf } from "./routing.ts";
import { distance, impossibleDate } from "../platform/validation-messages.ts";

type Json = Record<string, any>;

/** `#/components/...` of the bundle resolved (a schema, parameter or request body). */
function deref(node: Json | undefined): Json | undefined {
  let n = node;
  for (let i = 0; n?.$ref && i < 10; i++) {
    let at: any = apiDocument();
    for (const part of String(n.$ref).replace(/^#\//, "").split("/")) at = at?.[part];
    n = at;
  }
  return n;
}

/** The operation of the request in the bundle. */
function documentOperation(req: Request): Json | undefined {
  const op = operationOf(req);
  return op ? apiDocument().paths[op.path]?.[op.method.toLowerCase()] : undefined;
}

/** The property names a schema allows (through allOf/oneOf/anyOf), or none when it takes any. */
function propertiesOf(schema: Json | undefined, depth = 0): string[] {
  const s = deref(schema);
  if (!s || depth > 8) return [];
  const own = Object.keys(s.properties ?? {});
  const nested = [...(s.allOf ?? []), ...(s.oneOf ?? []), ...(s.anyOf ?? [])].flatMap((x: Json) => propertiesOf(x, depth + 1));
  return [...new Set([...own, ...nested])];
}

/** The schema at `segments` below `schema` (object properties, array items). */
function schemaAt(schema: Json | undefined, segments: string[]): Json | undefined {
  let s = deref(schema);
  for (const seg of segments) {
    if (!s) return undefined;
    if (/^\d+$/.test(seg) && s.items) s = deref(s.items);
    else {
      const branches = [s, ...(s.allOf ?? []), ...(s.oneOf ?? []), ...(s.anyOf ?? [])].map(deref);
      s = deref(branches.map((b) => b?.properties?.[seg]).find(Boolean));
    }
  }
  return s;
}

/**
 * The known name `unknown` most likely meant: one of its `_`-separated words (`decision_comment` →
 * `comment`), or within two edits (`nmae` → `name`); none when two are equally likely.
 */
export function nearestName(unknown: string, known: string[]): string | undefined {
  const lower = unknown.toLowerCase();
  const words = lower.split(/[_\-.]/).filter(Boolean);
  const byWord = known.filter((k) => words.includes(k.toLowerCase()) || k.toLowerCase().split("_").includes(lower));
  if (byWord.length === 1) return byWord[0];
  const scored = known.map((k) => ({ k, d: distance(lower, k.toLowerCase()) })).filter((x) => x.d <= 2);
  const best = Math.min(...scored.map((x) => x.d));
  const at = scored.filter((x) => x.d === best);
  return at.length === 1 ? at[0].k : undefined;
}

const fieldsSentence = (known: string[]) =>
  known.length <= 40 ? ` This request takes: ${known.join(", ")}.` : " See the operation's schema in /docs for its fields.";

function unknownField(req: Request, d: ErrorDetail): string | undefined {
  const op = documentOperation(req);
  if (!op) return undefined;
  const [where, ...rest] = d.path.split(".");
  let known: string[] = [];
  if (where === "body") {
    const media = deref(op.requestBody)?.content ?? {};
    const schema = (media["application/json"] ?? media["multipart/form-data"] ?? Object.values(media)[0])?.schema;
    known = propertiesOf(schemaAt(schema, rest.slice(0, -1)));
  } else if (where === "query") {
    const item = apiDocument().paths[operationOf(req)!.path];
    known = [...(item.parameters ?? []), ...(op.parameters ?? [])]
      .map((p: Json) => deref(p))
      .filter((p: Json | undefined) => p?.in === "query")
      .map((p) => (p as Json).name as string);
  }
  if (!known.length) return undefined;
  const name = rest.at(-1) ?? "";
  const near = nearestName(name, known);
  const what = where === "query" ? "query parameter" : "field";
  return `is not a ${what} of this request${near ? `: did you mean "${near}"?` : "."}${fieldsSentence(known)}`;
}

/** The value a detail's path names in the request (`body.a.0.b`, `query.from`). */
function valueAt(req: Request, path: string): unknown {
  const [where, ...rest] = path.split(".");
  let v: any = where === "body" ? req.body : where === "query" ? req.query : where === "params" ? req.params : undefined;
  for (const seg of rest) v = v?.[seg];
  return v;
}

/** `err` with its details and message saying what to send instead, where the request tells. */
export function withHints(req: Request, err: AppError): AppError {
  if (err.code === "validation_failed" && err.details?.length) {
    for (const d of err.details) {
      if (d.message === "must not have additional properties" || /^Unknown query parameter/.test(d.message))
        d.message = unknownField(req, d) ?? d.message;
      else if (/^must be (a date|an instant)/.test(d.message)) d.message = impossibleDate(valueAt(req, d.path)) ?? d.message;
    }
  }
  if (err.code === "unsupported_media_type" && err.message === "Unsupported content type") {
    const types = Object.keys(deref(documentOperation(req)?.requestBody)?.content ?? {});
    const sent = req.get("content-type")?.split(";")[0] ?? "none";
    if (types.length)
      err.message = `Unsupported content type (${sent}): send the body as ${types.join(" or ")}, with a matching Content-Type header`;
  }
  return err;
}
