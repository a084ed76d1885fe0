// The examples of generated/openapi.json are what the API reference (/docs) and mock servers show:
//   - every example and every default of the document (of a schema, a property, a media type, a
//     parameter, a header; under paths, webhooks and components) is valid for its schema - the
//     one check of them: Spectral's example rules are off (openapi/spectral.yaml);
//   - a mock answer of every operation, built from the examples as a mock server does (the media
//     type's example, else the schema's, else one made of its properties' - enum: the first value),
//     is valid for the operation's response schema, and none of its strings is made up: each comes
//     from an example, an enum or a const (never the `string` or today's date a generator falls back
//     to), and no date in it lies outside the years 2000-2100 (a period like `6344-05` is the random
//     match of a pattern).
//   - a mock answer breaks none of the rules the server keeps between fields (ruleBreaks): a record in
//     its first status has no decision, progress or failure yet; dates in order; leave days its
//     dates can hold; net = gross - deductions; a page within its total; headcount = its statuses.
// The strings get their examples in the bundle (openapi/plugins/examples.js, hrms/examples).
import { readFileSync } from "node:fs";
import path from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { describe, expect, it } from "vitest";
import { today } from "../support/clock.ts";

type Json = any;
const doc: Json = JSON.parse(readFileSync(path.resolve(import.meta.dirname, "../../generated/openapi.json"), "utf8"));
const DOC_ID = "https://hrms.example.com/openapi.json";
const METHODS = ["get", "post", "put", "patch", "delete"];

const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
// ajv-formats is CommonJS: its default import is the module, whose `default` is the plugin
addFormats.default(ajv);
ajv.addFormat("int32", { type: "number", validate: (n: number) => Number.isInteger(n) && Math.abs(n) <= 2 ** 31 });
ajv.addFormat("int64", { type: "number", validate: (n: number) => Number.isInteger(n) });
ajv.addFormat("binary", true);
ajv.addSchema({ ...doc, $id: DOC_ID });

const pointer = (parts: (string | number)[]) => parts.map((p) => String(p).replaceAll("~", "~0").replaceAll("/", "~1")).join("/");
const at = (ref: string): Json =>
  ref
    .slice(2)
    .split("/")
    .map((p) => p.replaceAll("~1", "/").replaceAll("~0", "~"))
    .reduce((o: Json, k) => o?.[k], doc);
const deref = (x: Json): Json => (typeof x?.$ref === "string" ? deref(at(x.$ref)) : x);

/** Validates `value` against the schema at `parts` of the document; the problems, or [] when valid. */
function problems(parts: (string | number)[], value: unknown): string[] {
  const validate = ajv.getSchema(`${DOC_ID}#/${pointer(parts)}`) ?? ajv.compile({ $ref: `${DOC_ID}#/${pointer(parts)}` });
  if (validate(value)) return [];
  return (validate.errors ?? []).map((e: { instancePath: string; message?: string }) => `${e.instancePath || "(root)"} ${e.message}`);
}

const MAP_KEYS = ["properties", "patternProperties", "$defs", "schemas"];
const SCHEMA_KEYS = ["type", "$ref", "properties", "items", "enum", "const", "allOf", "oneOf", "anyOf", "format", "pattern"];

/** Every example of the document with the schema it must satisfy (its location, as path parts). */
function allExamples(): { where: string; schemaAt: (string | number)[]; value: unknown }[] {
  const found: { where: string; schemaAt: (string | number)[]; value: unknown }[] = [];
  const walk = (node: Json, parts: (string | number)[]) => {
    if (!node || typeof node !== "object") return;
    if (Array.isArray(node)) {
      for (const [i, n] of node.entries()) walk(n, [...parts, i]);
      return;
    }
    // a map of named schemas (`properties`, ...) is no schema whatever its members are called (a
    // property may itself be called `properties`: then its parent is the map)
    const isMap = MAP_KEYS.includes(String(parts.at(-1))) && !MAP_KEYS.includes(String(parts.at(-2)));
    const isSchema = !isMap && SCHEMA_KEYS.some((k) => k in node) && !("schema" in node) && !("in" in node);
    const target = isMap ? null : "schema" in node ? [...parts, "schema"] : isSchema ? parts : null;
    if (target && node.example !== undefined) found.push({ where: `#/${pointer(parts)}/example`, schemaAt: target, value: node.example });
    // a schema's default is what a client or a form shows when nothing is sent: it must be valid too
    if (isSchema && node.default !== undefined) found.push({ where: `#/${pointer(parts)}/default`, schemaAt: parts, value: node.default });
    if (target && Array.isArray(node.examples))
      for (const [i, v] of node.examples.entries()) found.push({ where: `#/${pointer(parts)}/examples/${i}`, schemaAt: target, value: v });
    if (target && node.examples && !Array.isArray(node.examples) && typeof node.examples === "object")
      for (const [k, ex] of Object.entries<Json>(node.examples))
        if (deref(ex)?.value !== undefined)
          found.push({ where: `#/${pointer(parts)}/examples/${k}`, schemaAt: target, value: deref(ex).value });
    for (const [k, v] of Object.entries(node)) if (k !== "example" && k !== "examples") walk(v, [...parts, k]);
  };
  walk(doc.paths, ["paths"]);
  walk(doc.webhooks, ["webhooks"]);
  walk(doc.components, ["components"]);
  return found;
}

/** A mock answer built from the examples (a mock server's sample); `madeUp` collects the strings that had none. */
function sample(schema: Json, where: string, madeUp: string[], depth = 0): unknown {
  if (schema?.$ref && schema.example !== undefined) return schema.example; // an example beside $ref is the property's own
  const s = deref(schema);
  if (!s || typeof s !== "object" || depth > 12) return null;
  if (s.example !== undefined) return s.example;
  if (Array.isArray(s.examples) && s.examples.length) return s.examples[0];
  if (s.const !== undefined) return s.const;
  if (Array.isArray(s.enum)) return s.enum.find((v: unknown) => v !== null) ?? null;
  if (s.allOf) {
    const parts = s.allOf.map((m: Json) => sample(m, where, madeUp, depth + 1));
    return parts.every((v: unknown) => v && typeof v === "object" && !Array.isArray(v)) ? Object.assign({}, ...parts) : parts[0];
  }
  const alternatives = s.oneOf ?? s.anyOf;
  if (alternatives) {
    const first = alternatives.find((m: Json) => deref(m)?.type !== "null") ?? alternatives[0];
    return sample(first, where, madeUp, depth + 1);
  }
  const type = [s.type ?? (s.properties ? "object" : undefined)].flat().find((t) => t !== "null") ?? s.type;
  switch (type) {
    case "object":
      return Object.fromEntries(
        Object.entries<Json>(s.properties ?? {}).map(([k, v]) => [k, sample(v, `${where}.${k}`, madeUp, depth + 1)]),
      );
    case "array":
      return s.items ? [sample(s.items, `${where}[]`, madeUp, depth + 1)] : [];
    case "string":
      madeUp.push(`${where}${s.format ? ` (${s.format})` : ""}${s.pattern ? ` /${s.pattern}/` : ""}`);
      return s.format === "date" ? today() : "string";
    case "integer":
    case "number":
      // a mock server without an example makes one up (Prism: -9007199254740991)
      madeUp.push(`${where} (${type})`);
      return s.minimum ?? 0;
    case "boolean":
      return true;
    default:
      return null;
  }
}

/** Strings of a mock answer that are placeholders: `string`, or a date whose year is outside 2000-2100. */
function placeholders(value: unknown, where = ""): string[] {
  if (typeof value === "string") {
    const year = /^(\d{4})-(0[1-9]|1[0-2])(-\d{2})?(T|$)/.exec(value)?.[1];
    if (value === "string" || (year && (Number(year) < 2000 || Number(year) > 2100))) return [`${where || "(root)"}: ${value}`];
    return [];
  }
  if (Array.isArray(value)) return value.flatMap((v, i) => placeholders(v, `${where}[${i}]`));
  if (value && typeof value === "object") return Object.entries(value).flatMap(([k, v]) => placeholders(v, `${where}.${k}`));
  return [];
}

const operations = Object.entries<Json>(doc.paths).flatMap(([p, item]) =>
  METHODS.filter((m) => item[m]).map((m) => ({ path: p, method: m, op: item[m] })),
);

/** Answers' objects in a status where these fields are not yet set (a pending request has no decision). */
const INITIAL = new Set(["draft", "pending", "pending_approval", "queued", "open", "requested", "scheduled", "submitted", "new"]);
const LATER = new RegExp(
  "^(decided|approved|rejected|cancelled|processed|resolved|closed|returned|completed|paid|withdrawn|failed|finished|responded)" +
    "_(at|by|on)$" +
    "|^(decision_comment|decision_notes|failure_reason|resolution_notes)$",
);
const days = (from: string, to: string) => (Date.parse(to) - Date.parse(from)) / 86_400_000 + 1;
const num = (v: unknown) => (typeof v === "string" && /^-?\d+(\.\d+)?$/.test(v) ? Number(v) : undefined);

/**
 * What the server never answers, object by object of a mock answer: a record's later fields in its
 * first status, dates in the wrong order, leave days its dates cannot hold, money that does not add
 * up, a page that holds more than its total, a headcount that is not its statuses' sum.
 */
function ruleBreaks(value: unknown, where: string): string[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => ruleBreaks(v, `${where}[${i}]`));
  if (!value || typeof value !== "object") return [];
  const o = value as Record<string, any>;
  const out: string[] = [];
  if (typeof o.status === "string" && INITIAL.has(o.status))
    for (const [k, v] of Object.entries(o))
      if (LATER.test(k) && v !== null) out.push(`${where}: ${o.status} with ${k} ${JSON.stringify(v)}`);
  // a run's progress is the whole run once it is calculated (a draft), not a run half done
  if (o.status === "draft" && o.progress && o.progress.processed !== o.progress.total)
    out.push(`${where}: draft with progress ${JSON.stringify(o.progress)}`);
  for (const [a, b] of [
    ["from_date", "to_date"],
    ["start_date", "end_date"],
    ["period_start", "period_end"],
  ])
    if (typeof o[a] === "string" && typeof o[b] === "string" && o[a] > o[b]) out.push(`${where}: ${a} ${o[a]} after ${b} ${o[b]}`);
  if (typeof o.from_date === "string" && typeof o.to_date === "string" && num(o.days) !== undefined) {
    const span = days(o.from_date, o.to_date);
    // at most the span; at least its working days (five of seven, a few holidays and two half days aside)
    if (num(o.days)! > span || num(o.days)! < (span * 5) / 7 - 3) out.push(`${where}: ${o.days} days from ${o.from_date} to ${o.to_date}`);
  }
  for (const [gross, deductions, net] of [
    ["total_gross", "total_deductions", "total_net"],
    ["gross", "total_deductions", "net_pay"],
  ])
    if (
      [gross, deductions, net].every((k) => num(o[k]) !== undefined) &&
      Math.abs(num(o[gross])! - num(o[deductions])! - num(o[net])!) > 0.005
    )
      out.push(`${where}: ${net} ${o[net]} is not ${gross} ${o[gross]} - ${deductions} ${o[deductions]}`);
  if (o.pagination && Array.isArray(o.data)) {
    const p = o.pagination;
    if (p.total < o.data.length || o.data.length > p.limit || p.total_pages !== Math.ceil(p.total / p.limit))
      out.push(`${where}: ${o.data.length} rows with pagination ${JSON.stringify(p)}`);
  }
  if (o.by_status && typeof o.total === "number") {
    const s = o.by_status;
    if (o.total !== s.active + s.inactive + s.on_notice) out.push(`${where}: headcount ${o.total} is not active + inactive + on notice`);
  }
  return [...out, ...Object.entries(o).flatMap(([k, v]) => ruleBreaks(v, `${where}.${k}`))];
}

describe("the document's examples", () => {
  it("are each valid for their schema, as are the defaults (schemas, properties, media types, parameters, headers)", () => {
    const examples = allExamples();
    expect(examples.length).toBeGreaterThan(1000);
    const invalid = examples.flatMap((e) => problems(e.schemaAt, e.value).map((p) => `${e.where}: ${p} (${JSON.stringify(e.value)})`));
    expect(invalid).toEqual([]);
  });

  it("make a mock answer of every operation's JSON responses that is valid, with no made-up string and no date outside 2000-2100", () => {
    const madeUp: string[] = [];
    const invalid: string[] = [];
    const fake: string[] = [];
    const rules: string[] = [];
    let answers = 0;
    for (const { path: p, method, op } of operations)
      for (const [status, response] of Object.entries<Json>(op.responses ?? {})) {
        const media = deref(response)?.content?.["application/json"];
        if (!media) continue;
        answers++;
        const where = `${op.operationId} ${status}`;
        // the media type's example, else its first named one (as a mock server picks), else one built from the schema
        const named = media.examples ? deref(Object.values<Json>(media.examples)[0])?.value : undefined;
        const mock = media.example !== undefined ? media.example : named !== undefined ? named : sample(media.schema, where, madeUp);
        const schemaAt =
          typeof response.$ref === "string"
            ? [...response.$ref.slice(2).split("/"), "content", "application/json", "schema"]
            : ["paths", p, method, "responses", status, "content", "application/json", "schema"];
        invalid.push(...problems(schemaAt, mock).map((e) => `${where}: ${e}`));
        fake.push(...placeholders(mock, where));
        rules.push(...ruleBreaks(mock, where));
        // an error's example is its own status, and a 400 names the field in details
        if (/^[45]/.test(status) && mock && typeof mock === "object") {
          const e = mock as { status?: number; code?: string; details?: unknown[] };
          if (e.status !== Number(status)) rules.push(`${where}: an error example with status ${e.status}`);
          if (e.code === "validation_failed" && !e.details?.length) rules.push(`${where}: a validation_failed example without details`);
        }
      }
    expect(answers).toBeGreaterThan(operations.length);
    expect([...new Set(madeUp)].sort()).toEqual([]);
    expect(invalid).toEqual([]);
    expect(fake).toEqual([]);
    expect(rules).toEqual([]);
  });
});
