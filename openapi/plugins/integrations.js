// Redocly plugin for machine clients: what an API credential may call, declared once per
// operation in the bundle.
// Decorator integrations/scopes: every non-public operation gets
//   - `x-scope`: the scope a credential needs for it - `<area>:read` for GET, `<area>:write` for
//     any other method, the area being `x-area` or the first tag - unless the path file declares
//     its own (the webhook endpoints: `webhooks:manage`); and
//   - `security`: the session cookie, or an API credential (`apiCredential: [<scope>]`, the
//     Bearer secret or an OAuth 2.0 access token).
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

function scopes() {
  return {
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
          op.security = [{ sessionCookie: [] }, { apiCredential: [scope] }];
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
