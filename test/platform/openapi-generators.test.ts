// What client generators need of the bundled document beyond its validity (make sdks generates five
// clients; these are the constructs that broke one of them): no property typed `null` alone
// (openapi-generator's Go client gave it a field of type `nil`, which does not compile), and no tag
// shared between `paths` and `webhooks` (openapi-generator wrote the API file of such a tag twice,
// the webhooks' over the operations').
import { describe, expect, it } from "vitest";
import { apiDocument } from "../../src/http/routing.ts";

type Schema = { type?: unknown; properties?: Record<string, Schema>; [k: string]: unknown };
type Item = Record<string, { tags?: string[] }>;

/** Every property schema of the document whose type is `null` and nothing else, by its location. */
function nullOnlyProperties(node: unknown, at: string, found: string[]): string[] {
  if (Array.isArray(node)) node.forEach((n, i) => nullOnlyProperties(n, `${at}/${i}`, found));
  else if (node && typeof node === "object") {
    const s = node as Schema;
    for (const [name, p] of Object.entries(s.properties ?? {})) if (p?.type === "null") found.push(`${at}/properties/${name}`);
    for (const [k, v] of Object.entries(s)) nullOnlyProperties(v, `${at}/${k}`, found);
  }
  return found;
}

const tagsOf = (items: Record<string, Item> = {}) =>
  new Set(Object.values(items).flatMap((item) => Object.values(item).flatMap((op) => (op && typeof op === "object" ? (op.tags ?? []) : []))));

describe("the bundled document, as client generators read it", () => {
  const doc = apiDocument() as { paths: Record<string, Item>; webhooks?: Record<string, Item> };

  it("has no property typed null alone", () => {
    expect(nullOnlyProperties(doc, "#", [])).toEqual([]);
  });

  it("tags its webhooks apart from its operations", () => {
    const operations = tagsOf(doc.paths);
    expect([...tagsOf(doc.webhooks)].filter((t) => operations.has(t))).toEqual([]);
  });
});
