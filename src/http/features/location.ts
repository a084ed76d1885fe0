// `Location` on a 201 (RFC 9110 §10.2.2): the created record's own GET path with its id, for the
// creates whose 201 declares it (openapi/plugins/links.js; the flag `location` in generated/registry.ts).
import type { Feature } from "./feature.ts";

/** The value at a JSON pointer (`/data/id`) of `body`. */
function at(body: unknown, pointer: string): unknown {
  return pointer
    .split("/")
    .slice(1)
    .reduce<unknown>((v, k) => (v as Record<string, unknown> | undefined)?.[k.replaceAll("~1", "/").replaceAll("~0", "~")], body);
}

export const location: Feature = {
  name: "location",
  applies: (op) => op.location !== null,
  wrap: async (call, next) => {
    const answer = await next();
    const spec = call.op.location;
    if (!spec || !("status" in answer) || answer.status !== 201) return answer;
    let path = spec.path;
    for (const [name, pointer] of Object.entries(spec.params)) {
      const value = at(answer.body, pointer);
      if (typeof value !== "string") return answer;
      path = path.replace(`{${name}}`, encodeURIComponent(value));
    }
    call.res.setHeader("Location", path);
    return answer;
  },
};
