// OpenAPI `links` (openapi/plugins/links.js): every create whose 201 answer carries
// the new record's id links to the operations that take that id, and every link resolves - its
// operationId names an operation of the document, its parameters are exactly that operation's path
// parameters, and each expression points at an id (a uuid) of the answer it hangs on.
import { describe, expect, it } from "vitest";
import doc from "../../generated/openapi.json" with { type: "json" };

type Json = Record<string, any>;
const METHODS = ["get", "put", "patch", "delete", "post"];

function deref(node: Json | undefined): Json | undefined {
  let n = node;
  while (n && typeof n.$ref === "string") {
    n = n.$ref
      .slice(2)
      .split("/")
      .reduce((at: Json | undefined, part: string) => at?.[part.replaceAll("~1", "/").replaceAll("~0", "~")], doc as Json);
  }
  return n;
}

/** The schema a JSON pointer into a body of `schema` lands on (properties and allOf), or undefined. */
function schemaAt(schema: Json | undefined, pointer: string): Json | undefined {
  let at = deref(schema);
  for (const part of pointer.split("/").slice(1)) {
    const direct = deref(at?.properties?.[part]);
    const viaAllOf = (at?.allOf ?? []).map((s: Json) => deref(deref(s)?.properties?.[part])).find(Boolean);
    at = direct ?? viaAllOf;
    if (!at) return undefined;
  }
  return at;
}

const operations = new Map<string, { path: string; method: string; op: Json }>();
for (const [p, item] of Object.entries(doc.paths as Json))
  for (const method of METHODS)
    if (item[method]?.operationId) operations.set(item[method].operationId, { path: p, method, op: item[method] });

const links: { from: string; status: string; name: string; link: Json; response: Json }[] = [];
for (const { op } of operations.values())
  for (const [status, declared] of Object.entries(op.responses as Json)) {
    const response = deref(declared as Json) as Json;
    for (const [name, link] of Object.entries((response.links ?? {}) as Json))
      links.push({ from: op.operationId, status, name, link: deref(link as Json) as Json, response });
  }

describe("OpenAPI links from creates to the operations on the created id", () => {
  it("every link names an operation, fills exactly its path parameters and points at a uuid of the answer", () => {
    expect(links.length).toBeGreaterThan(50);
    for (const { from, status, name, link, response } of links) {
      const where = `${from} ${status} links.${name}`;
      const target = operations.get(link.operationId);
      expect(target, `${where}: operationId ${link.operationId}`).toBeDefined();
      if (!target) continue;
      const pathParams = [...target.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
      expect(Object.keys(link.parameters ?? {}).sort(), where).toEqual(pathParams.sort());
      for (const expression of Object.values(link.parameters as Record<string, string>)) {
        const m = /^\$response\.body#(\/.*)$/.exec(expression);
        expect(m, `${where}: ${expression}`).not.toBeNull();
        const schema = response.content?.["application/json"]?.schema;
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
      if (op.operationId !== (doc.paths as Json)[path].post?.operationId || path.includes("{")) continue;
      const created = deref(op.responses["201"]);
      const id = schemaAt(created?.content?.["application/json"]?.schema, "/data/id");
      const below = [...operations.values()].some((o) => new RegExp(`^${path}/\\{(id|[a-z]+Id)\\}$`).test(o.path));
      if (id && below && !["inviteMember"].includes(op.operationId))
        expect(Object.keys(created?.links ?? {}), op.operationId).not.toEqual([]);
    }
  });
});
