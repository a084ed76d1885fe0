// Decorator hrms/links : OpenAPI `links` from each create to the operations
// that take what it created, so stateful test generators and clients can chain calls
// (create -> get / update / delete / the record's actions).
//
// A create is the POST of a collection path (`/api/leave-requests`) whose 201 answer carries an
// id: `data.id`, or the `id` of the one object property of `data` that has one
// (`data.credential.id` of createApiCredential). Every operation of a path directly below it
// whose only path parameter follows the collection (`/api/leave-requests/{id}`,
// `/api/leave-requests/{id}/approve`) gets a link from that 201, named by its operationId, with
// the parameter `$response.body#/data/id`. The parameter must be the created record's id: it is
// `id`, or `<record>Id` where the collection's name starts with `<record>` (`/api/employees/
// {employeeId}`, `/api/assets/{assetId}`); another name (`/api/configuration/members/{userId}`
// after an invitation) is some other record's id and gets no link.
// Such a 201 also declares `Location`: the record's own GET path with its id (the server sends it,
// src/http/features/location.ts). test/platform/openapi-links.test.ts checks that every link names an operation of the document,
// that its parameters are that operation's path parameters, and that each expression points at
// an id (format uuid) of the 201 answer's schema.
const METHODS = ["get", "put", "patch", "delete", "post"];

/** The pointer below the answer body to the created record's id, or null. */
function idPointer(response, resolve) {
  const json = resolve(response)?.node?.content?.["application/json"];
  const envelope = json && resolve(json.schema);
  const dataRef = envelope?.node?.properties?.data;
  if (!dataRef) return null;
  const data = resolve(dataRef, envelope.location?.source.absoluteRef);
  const properties = data?.node?.properties ?? {};
  if (properties.id) return "/data/id";
  const nested = Object.entries(properties).filter(([, prop]) => {
    const target = resolve(prop, data.location?.source.absoluteRef)?.node;
    return target?.type === "object" && target.properties?.id;
  });
  return nested.length === 1 ? `/data/${nested[0][0]}/id` : null;
}

/** The record an id parameter names: `id` names the collection's record, `<record>Id` a record of that name. */
function namesCreated(collection, param) {
  if (param === "id") return true;
  const m = /^([a-z][a-zA-Z]*)Id$/.exec(param);
  if (!m) return false;
  const last = collection.split("/").at(-1).replaceAll("-", "").toLowerCase();
  return last.startsWith(m[1].toLowerCase());
}

export function links() {
  let creates = [];
  let items = new Map();
  return {
    Root: {
      enter() {
        creates = [];
        items = new Map();
      },
      leave() {
        for (const { url, response, pointer, createId } of creates) {
          for (const [other, pathItem] of items) {
            const m = /^\{([A-Za-z]+)\}(\/[^{}]*)?$/.exec(other.startsWith(`${url}/`) ? other.slice(url.length + 1) : "");
            if (!m || !namesCreated(url, m[1])) continue;
            // the record's own GET (`/api/holidays/{id}`): where the 201's Location points (RFC 9110 §10.2.2)
            if (!m[2] && pathItem.get?.operationId) {
              response.headers ??= {};
              response.headers.Location ??= {
                required: true,
                description: `Where the created record is: \`${other}\` (${pathItem.get.operationId}) with its id.`,
                schema: {
                  type: "string",
                  format: "uri-reference",
                  maxLength: 2000,
                  example: `${other.replace(/\{[^}]+\}/, "3f2b8c1e-8d4a-4f6b-9c2e-1a5d7e9f0b21")}`,
                },
              };
            }
            for (const method of METHODS) {
              const op = pathItem[method];
              if (!op?.operationId || op.operationId === createId) continue;
              response.links ??= {};
              response.links[op.operationId] ??= {
                operationId: op.operationId,
                parameters: { [m[1]]: `$response.body#${pointer}` },
                description: `${method.toUpperCase()} ${other} with the id of the record just created.`,
              };
            }
          }
        }
      },
    },
    PathItem: {
      leave(pathItem, ctx) {
        if (ctx.location.pointer.startsWith("#/webhooks/")) return;
        const url = String(ctx.key);
        items.set(url, pathItem);
        const op = pathItem.post;
        const declared = op?.responses?.["201"];
        if (!declared || /\{[^}]+\}/.test(url)) return;
        const resolved = ctx.resolve(declared);
        const resolve = (node, from) => (from ? ctx.resolve(node, from) : ctx.resolve(node));
        const pointer = idPointer(declared, resolve);
        if (pointer && resolved.node) creates.push({ url, response: resolved.node, pointer, createId: op.operationId });
      },
    },
  };
}
