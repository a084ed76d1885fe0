// OpenAPI `links` (openapi/plugins/links.js): every create whose 201 answer carries
// the new record's id links to the operations that take that id, and every link resolves - its
// operationId names an operation of the document, its parameters are exactly that operation's path
// parameters, and each expression points at an id (a uuid) of the answer it hangs on.
import { describe, expect, it } from "vitest";
import { asArray, asObject, at, bundledDocument, deref, documentOperationsOf, type JsonObject } from "../support/document.ts";

const doc = bundledDocument();

/** The schema a JSON pointer into a body of `schema` lands on (properties and allOf), or undefined. */
function schemaAt(schema: unknown, pointer: string): JsonObject | undefined {
  let node: JsonObject | undefined = deref(schema);
  for (const part of pointer.split("/").slice(1)) {
    const direct: unknown = asObject(node?.properties)[part];
    const viaAllOf = asArray(node?.allOf)
      .map((s) => asObject(deref(s).properties)[part])
      .find(Boolean);
    const next: unknown = direct ?? viaAllOf;
    node = next ? deref(next) : undefined;
    if (!node) return undefined;
  }
  return node;
}

const operations = new Map<string, { path: string; method: string; op: JsonObject }>();
for (const { path, method, op } of documentOperationsOf(doc))
  if (typeof op.operationId === "string") operations.set(op.operationId, { path, method, op });

const links: { from: string; status: string; name: string; link: JsonObject; response: JsonObject }[] = [];
for (const { op } of operations.values())
  for (const [status, declared] of Object.entries(asObject(op.responses))) {
    const response = deref(declared);
    for (const [name, link] of Object.entries(asObject(response.links)))
      links.push({ from: String(op.operationId), status, name, link: deref(link), response });
  }

describe("OpenAPI links from creates to the operations on the created id", () => {
  it("every link names an operation, fills exactly its path parameters and points at a uuid of the answer", () => {
    expect(links.length).toBeGreaterThan(50);
    for (const { from, status, name, link, response } of links) {
      const where = `${from} ${status} links.${name}`;
      const target = operations.get(String(link.operationId));
      expect(target, `${where}: operationId ${link.operationId}`).toBeDefined();
      if (!target) continue;
      const pathParams = [...target.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
      expect(Object.keys(asObject(link.parameters)).sort(), where).toEqual(pathParams.sort());
      for (const expression of Object.values(asObject(link.parameters)).map(String)) {
        const m = /^\$response\.body#(\/.*)$/.exec(expression);
        expect(m, `${where}: ${expression}`).not.toBeNull();
        const schema = at(response, "content", "application/json", "schema");
        const id = schemaAt(schema, m?.[1] ?? "");
        expect(id?.format, `${where}: ${expression} is a uuid of the answer`).toBe("uuid");
      }
    }
  });

  it("links each create with an id to the get, update and delete of its record", () => {
    const from = (op: string) =>
      links
        .filter((l) => l.from === op)
        .map((l) => l.link.operationId)
        .sort();
    expect(from("createLeaveRequest")).toEqual(expect.arrayContaining(["getLeaveRequest"]));
    expect(from("createEmployee")).toEqual(expect.arrayContaining(["getEmployee", "updateEmployee", "deleteEmployee"]));
    expect(from("createHoliday")).toEqual(expect.arrayContaining(["getHoliday", "updateHoliday", "deleteHoliday"]));
    expect(from("createJobOffer")).toEqual(expect.arrayContaining(["getJobOffer", "sendJobOffer"]));
    // the credential's id is one level down (data.credential.id)
    expect(links.find((l) => l.from === "createApiCredential")?.link.parameters).toEqual({ id: "$response.body#/data/credential/id" });
    // an invitation's id is no user id: no link to the member operations
    expect(from("inviteMember")).toEqual([]);

    // every create (a collection's POST with a 201 carrying an id) that has a `{param}` path below
    // it links to something there
    for (const { path, op } of operations.values()) {
      if (op.operationId !== at(doc, "paths", path, "post", "operationId") || path.includes("{")) continue;
      const created = deref(asObject(op.responses)["201"]);
      const id = schemaAt(at(created, "content", "application/json", "schema"), "/data/id");
      const below = [...operations.values()].some((o) => new RegExp(`^${path}/\\{(id|[a-z]+Id)\\}$`).test(o.path));
      if (id && below && op.operationId !== "inviteMember")
        expect(Object.keys(asObject(created.links)), String(op.operationId)).not.toEqual([]);
    }
  });
});
