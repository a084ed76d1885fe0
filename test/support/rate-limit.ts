// The headers of a 429 as the document declares them (components/responses/RateLimited, the one
// 429 of every operation: Retry-After, RateLimit, RateLimit-Policy - src/platform/errors.ts,
// rateLimitHeaders): each one sent, each value within its declared schema, and naming the limit
// that refused.
import { readFileSync } from "node:fs";
import path from "node:path";
import { expect } from "vitest";

const doc = JSON.parse(readFileSync(path.resolve(import.meta.dirname, "../../generated/openapi.json"), "utf8"));
const resolve = (r: any): any =>
  typeof r?.$ref === "string"
    ? resolve(
        r.$ref
          .slice(2)
          .split("/")
          .reduce((o: any, k: string) => o?.[k], doc),
      )
    : r;

/** Every operation's 429 response as the document declares it ("<METHOD> <path>" -> the response object, unresolved). */
export function declared429s(): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [p, item] of Object.entries<any>(doc.paths))
    for (const [method, op] of Object.entries<any>(item))
      if (op?.responses?.["429"]) out[`${method.toUpperCase()} ${p}`] = op.responses["429"];
  return out;
}

/** The headers the document's 429 response (RateLimited) declares (name -> schema). */
export function declared429Headers(): Record<string, { type: string; pattern?: string; minimum?: number; maximum?: number }> {
  return Object.fromEntries(
    Object.entries<any>(resolve(doc.components.responses.RateLimited).headers ?? {}).map(([h, v]) => [h, resolve(v).schema]),
  );
}

/** Asserts the 429's headers: every declared one, valid for its schema, for the limit `policy`. */
export function expectRateLimitHeaders(
  res: { status: number; headers: Record<string, unknown> },
  policy: { name: string; limit: number; windowSeconds?: number },
): number {
  expect(res.status).toBe(429);
  const headers = declared429Headers();
  expect(Object.keys(headers).sort()).toEqual(["RateLimit", "RateLimit-Policy", "Retry-After"]);
  for (const [name, schema] of Object.entries(headers)) {
    const value = res.headers[name.toLowerCase()];
    expect(value, `${name} of the 429`).toEqual(expect.any(String));
    if (schema.pattern) expect(value, `${name} within its declared pattern`).toMatch(new RegExp(schema.pattern));
    if (schema.type === "integer") {
      expect(String(value)).toMatch(/^[0-9]+$/);
      expect(Number(value)).toBeGreaterThanOrEqual(schema.minimum ?? 0);
      expect(Number(value)).toBeLessThanOrEqual(schema.maximum ?? Number.MAX_SAFE_INTEGER);
    }
  }
  const retryAfter = Number(res.headers["retry-after"]);
  const window = policy.windowSeconds === undefined ? "" : `;w=${policy.windowSeconds}`;
  expect(res.headers["ratelimit-policy"]).toBe(`"${policy.name}";q=${policy.limit}${window}`);
  expect(res.headers.ratelimit).toBe(`"${policy.name}";r=0;t=${retryAfter}`);
  if (policy.windowSeconds !== undefined) expect(retryAfter).toBeLessThanOrEqual(policy.windowSeconds);
  return retryAfter;
}
