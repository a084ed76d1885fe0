// The bundled document (generated/openapi.json) as the tests read it: loaded once per process, its
// nodes read as plain JSON objects, local `$ref`s followed. One copy for the recorder, the 429
// header checks, the proof harness and the tests that hold the document to what the server does.
import { readFileSync } from "node:fs";
import path from "node:path";

/** A JSON object of the document: its fields are read and narrowed where they are used. */
export type JsonObject = { [key: string]: unknown };

/** `x` when it is a JSON object, else an empty one (an absent section reads as having nothing). */
export const asObject = (x: unknown): JsonObject => (typeof x === "object" && x !== null && !Array.isArray(x) ? (x as JsonObject) : {});

/** `x` when it is an array, else an empty one. */
export const asArray = (x: unknown): unknown[] => (Array.isArray(x) ? x : []);

let cached: JsonObject | undefined;
/** generated/openapi.json, parsed once. */
export function bundledDocument(): JsonObject {
  cached ??= JSON.parse(readFileSync(path.resolve(import.meta.dirname, "../../generated/openapi.json"), "utf8")) as JsonObject;
  return cached;
}

/** The node a local `$ref` (`#/components/...`, JSON-pointer escaped) points at in `doc`. */
export function pointer(ref: string, doc: JsonObject = bundledDocument()): unknown {
  if (!ref.startsWith("#/")) throw new Error(`external $ref ${ref}`);
  return ref
    .slice(2)
    .split("/")
    .reduce<unknown>((o, k) => asObject(o)[k.replace(/~1/g, "/").replace(/~0/g, "~")], doc);
}

/** Follows local `$ref`s (at most 20, so a recursive schema stays finite); the node reached, as an object. */
export function deref(node: unknown, doc: JsonObject = bundledDocument()): JsonObject {
  let n = node;
  for (let i = 0; i < 20 && typeof asObject(n).$ref === "string"; i++) n = pointer(asObject(n).$ref as string, doc);
  return asObject(n);
}

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

/** Every operation of `doc`: its path, method, path item and the operation object. */
export function documentOperationsOf(
  doc: JsonObject = bundledDocument(),
): { path: string; method: string; item: JsonObject; op: JsonObject }[] {
  return Object.entries(asObject(doc.paths)).flatMap(([path, item]) =>
    Object.entries(asObject(item))
      .filter(([method, op]) => METHODS.includes(method) && typeof op === "object" && op !== null)
      .map(([method, op]) => ({ path, method, item: asObject(item), op: asObject(op) })),
  );
}

/** The node at `keys` under `node` (undefined where a step is missing). */
export const at = (node: unknown, ...keys: string[]): unknown => keys.reduce<unknown>((o, k) => asObject(o)[k], node);
