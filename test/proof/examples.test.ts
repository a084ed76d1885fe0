// The examples of generated/openapi.json are what the API reference (/docs) and mock servers show:
//   - every example of the document (of a schema, a property, a media type, a parameter, a header)
//     is valid for its schema;
//   - a mock answer of every operation, built from the examples as a mock server does (the media
//     type's example, else the schema's, else one made of its properties' - enum: the first value),
//     is valid for the operation's response schema, and none of its strings is made up: each comes
//     from an example, an enum or a const (never the `string` or today's date a generator falls back
//     to), and no date in it lies outside the years 2000-2100 (a period like `6344-05` is the random
//     match of a pattern).
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
    const isSchema = SCHEMA_KEYS.some((k) => k in node) && !("schema" in node) && !("in" in node);
    const target = "schema" in node ? [...parts, "schema"] : isSchema ? parts : null;
    if (target && node.example !== undefined) found.push({ where: `#/${pointer(parts)}/example`, schemaAt: target, value: node.example });
    if (target && Array.isArray(node.examples))
      for (const [i, v] of node.examples.entries()) found.push({ where: `#/${pointer(parts)}/examples/${i}`, schemaAt: target, value: v });
    if (target && node.examples && !Array.isArray(node.examples) && typeof node.examples === "object")
      for (const [k, ex] of Object.entries<Json>(node.examples))
        if (deref(ex)?.value !== undefined)
          found.push({ where: `#/${pointer(parts)}/examples/${k}`, schemaAt: target, value: deref(ex).value });
    for (const [k, v] of Object.entries(node)) if (k !== "example" && k !== "examples") walk(v, [...parts, k]);
  };
  walk(doc.paths, ["paths"]);
  walk(doc.components, ["components"]);
  return found;
}

/** A mock answer built from the examples (a mock server's sample); `madeUp` collects the strings that had none. */
function sample(schema: Json, where: string, madeUp: string[], depth = 0): unknown {
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

describe("the document's examples", () => {
  it("are each valid for their schema (schemas, properties, media types, parameters, headers)", () => {
    const examples = allExamples();
    expect(examples.length).toBeGreaterThan(1000);
    const invalid = examples.flatMap((e) => problems(e.schemaAt, e.value).map((p) => `${e.where}: ${p} (${JSON.stringify(e.value)})`));
    expect(invalid).toEqual([]);
  });

  it("make a mock answer of every operation's JSON responses that is valid, with no made-up string and no date outside 2000-2100", () => {
    const madeUp: string[] = [];
    const invalid: string[] = [];
    const fake: string[] = [];
    let answers = 0;
    for (const { path: p, method, op } of operations)
      for (const [status, response] of Object.entries<Json>(op.responses ?? {})) {
        const media = deref(response)?.content?.["application/json"];
        if (!media) continue;
        answers++;
        const where = `${op.operationId} ${status}`;
        const mock = media.example !== undefined ? media.example : sample(media.schema, where, madeUp);
        const schemaAt =
          typeof response.$ref === "string"
            ? [...response.$ref.slice(2).split("/"), "content", "application/json", "schema"]
            : ["paths", p, method, "responses", status, "content", "application/json", "schema"];
        invalid.push(...problems(schemaAt, mock).map((e) => `${where}: ${e}`));
        fake.push(...placeholders(mock, where));
      }
    expect(answers).toBeGreaterThan(operations.length);
    expect([...new Set(madeUp)].sort()).toEqual([]);
    expect(invalid).toEqual([]);
    expect(fake).toEqual([]);
  });
});
