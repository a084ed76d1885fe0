// Redocly plugin for machine clients (issue 31): what an API credential may call, declared once per
// operation in the bundle.
// Decorator integrations/scopes: every non-public operation gets
//   - `x-scope`: the scope a credential needs for it - `<area>:read` for GET, `<area>:write` for
//     any other method, the area being `x-area` or the first tag - unless the path file declares
//     its own (the webhook endpoints: `webhooks:manage`); and
//   - `security`: the session cookie, or an API credential (`apiCredential: [<scope>]`, the
//     Bearer secret), or an OAuth 2.0 access token (`oauth2: [<scope>]`, the client-credentials
//     grant of issueOAuthToken) - the same Authorization header, declared as both schemes so that
//     generators and the reference's Authorize dialog offer either.
//   and the `oauth2` security scheme gets every scope an operation needs, each with a description
//   (from its area's tag), as the scopes of its client-credentials flow.
//   Session-only operations (the auth area, and those marking `x-session-only: true`: managing the
//   credentials themselves) get no scope and only the session cookie: a credential is refused (403).
//   src/http/guards.ts enforces both from the generated registry (its `scope` and `sessionOnly`).
// Rule integrations/scope-shape: `x-scope` is `<area>:read|write|manage`; `x-session-only` is `true` or absent.
const SCOPE = /^[a-z][a-z0-9-]{0,40}:(read|write|manage)$/;
const METHODS = ["get", "put", "post", "delete", "patch"];

/** The scope an operation needs, or null for a public or session-only one. */
export function scopeOf(method, op) {
  if (op["x-public"] === true || op["x-session-only"] === true) return null;
  const area = op["x-area"] ?? op.tags?.[0];
  if (area === "auth") return null;
  return op["x-scope"] ?? `${area}:${method === "get" ? "read" : "write"}`;
}

/**
 * What a scope allows, in words: from its area's tag, or (a scope of its own, not an area's) the
 * operations that need it. The webhook scope has its own words.
 */
export function scopeDescription(scope, tags, operations) {
  if (scope === "webhooks:manage")
    return "Manage the company's outbound webhook endpoints: add, change, remove, ping, replay, rotate their secrets, read deliveries.";
  const [area, access] = scope.split(":");
  const tag = tags.find((t) => t.name === area)?.description?.trim();
  if (!tag) return `Call ${operations.map((o) => `\`${o}\``).join(", ")}.`;
  const what = access === "read" ? "Read" : "Change";
  const ops = access === "read" ? "the GET operations" : "the operations other than GET";
  return `${what} ${area}: ${ops} of the \`${area}\` area${tag ? ` - ${tag.replace(/\s+/g, " ")}` : ""}`;
}

function scopes() {
  const used = new Map(); // scope -> the operationIds that need it
  return {
    Root: {
      leave(root, ctx) {
        const flow = root.components?.securitySchemes?.oauth2?.flows?.clientCredentials;
        if (!flow) {
          ctx.report({ message: "components.securitySchemes.oauth2 (clientCredentials flow) is missing.", location: ctx.location });
          return;
        }
        const tags = root.tags ?? [];
        flow.scopes = Object.fromEntries([...used.keys()].sort().map((s) => [s, scopeDescription(s, tags, used.get(s))]));
      },
    },
    PathItem: {
      leave(pathItem) {
        for (const method of METHODS) {
          const op = pathItem[method];
          if (!op || op["x-public"] === true) continue;
          const scope = scopeOf(method, op);
          if (scope === null) {
            op.security = [{ sessionCookie: [] }];
            continue;
          }
          op["x-scope"] = scope;
          used.set(scope, [...(used.get(scope) ?? []), op.operationId]);
          op.security = [{ sessionCookie: [] }, { apiCredential: [scope] }, { oauth2: [scope] }];
        }
      },
    },
  };
}

function scopeShape() {
  return {
    Operation(op, { report, location }) {
      if ("x-scope" in op && !(typeof op["x-scope"] === "string" && SCOPE.test(op["x-scope"])))
        report({ message: "`x-scope` is `<area>:read`, `<area>:write` or `<area>:manage`.", location: location.child("x-scope") });
      if ("x-session-only" in op && op["x-session-only"] !== true)
        report({ message: "`x-session-only` is `true` or absent.", location: location.child("x-session-only") });
    },
  };
}

export default function integrationsPlugin() {
  return {
    id: "integrations",
    rules: { oas3: { "scope-shape": scopeShape } },
    decorators: { oas3: { scopes } },
  };
}
