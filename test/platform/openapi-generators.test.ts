// What client generators need of the bundled document beyond its validity (make sdks generates five
// clients; these are the constructs that broke one of them): no property typed `null` alone
// (openapi-generator's Go client gave it a field of type `nil`, which does not compile), and no tag
// shared between `paths` and `webhooks` (openapi-generator wrote the API file of such a tag twice,
// the webhooks' over the operations'), and no model named by a multipart field (its Rust client
// writes `models::models::<Name>`, which does not compile): such a field writes its enum out, equal
// to the named schema's.
import { describe, expect, it } from "vitest";
import { apiDocument } from "../../src/http/routing.ts";

type Schema = { type?: unknown; properties?: Record<string, Schema>; [k: string]: unknown };
type Item = Record<string, { tags?: string[]; operationId?: string; requestBody?: { content?: Record<string, { schema?: Schema }> } }>;

/** Every property schema of the document whose type is `null` and nothing else, by its location. */
function nullOnlyProperties(node: unknown, at: string, found: string[]): string[] {
  if (Array.isArray(node)) node.forEach((n, i) => void nullOnlyProperties(n, `${at}/${i}`, found));
  else if (node && typeof node === "object") {
    const s = node as Schema;
    for (const [name, p] of Object.entries(s.properties ?? {})) if (p?.type === "null") found.push(`${at}/properties/${name}`);
    for (const [k, v] of Object.entries(s)) nullOnlyProperties(v, `${at}/${k}`, found);
  }
  return found;
}

const tagsOf = (items: Record<string, Item> = {}) =>
  new Set(
    Object.values(items).flatMap((item) => Object.values(item).flatMap((op) => (op && typeof op === "object" ? (op.tags ?? []) : []))),
  );

describe("the bundled document, as client generators read it", () => {
  const doc = apiDocument() as { paths: Record<string, Item>; webhooks?: Record<string, Item> };

  it("has no property typed null alone", () => {
    expect(nullOnlyProperties(doc, "#", [])).toEqual([]);
  });

  it("names no model in a multipart field, and a document_type field lists exactly DocumentType's values", () => {
    const schemas = (doc as unknown as { components: { schemas: Record<string, { enum?: string[] }> } }).components.schemas;
    const refs: string[] = [];
    let documentTypes = 0;
    for (const item of Object.values(doc.paths))
      for (const op of Object.values(item)) {
        const props = op?.requestBody?.content?.["multipart/form-data"]?.schema?.properties ?? {};
        for (const [name, p] of Object.entries(props)) {
          if (JSON.stringify(p).includes('"$ref"')) refs.push(`${op.operationId}.${name}`);
          if (name === "document_type") {
            documentTypes++;
            expect(p.enum, `${op.operationId}.document_type`).toEqual(schemas.DocumentType.enum);
          }
        }
      }
    expect(refs).toEqual([]);
    expect(documentTypes).toBeGreaterThan(0);
  });

  it("declares no discriminator (openapi-generator's Rust client makes it a serde tag removing the property its variants need)", () => {
    expect(JSON.stringify(doc)).not.toContain('"discriminator"');
  });

  it("tags its webhooks apart from its operations", () => {
    const operations = tagsOf(doc.paths);
    expect([...tagsOf(doc.webhooks)].filter((t) => operations.has(t))).toEqual([]);
  });
});
