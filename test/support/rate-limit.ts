// The headers of a 429 as the document declares them (components/responses/RateLimited, the one
// 429 of every operation: Retry-After, RateLimit, RateLimit-Policy - src/platform/errors.ts,
// rateLimitHeaders): each one sent, each value within its declared schema, and naming the limit
// that refused.
import { expect } from "vitest";
import { asObject, bundledDocument, deref, documentOperationsOf } from "./document.ts";

type DeclaredSchema = { type: string; pattern?: string; minimum?: number; maximum?: number };

/** Every operation's 429 response as the document declares it ("<METHOD> <path>" -> the response object, unresolved). */
export function declared429s(): Record<string, unknown> {
  return Object.fromEntries(
    documentOperationsOf()
      .filter(({ op }) => asObject(op.responses)["429"])
      .map(({ method, path, op }) => [`${method.toUpperCase()} ${path}`, asObject(op.responses)["429"]]),
  );
}

/** The headers the document's 429 response (RateLimited) declares (name -> schema). */
export function declared429Headers(): Record<string, DeclaredSchema> {
  return Object.fromEntries(
    Object.entries(asObject(deref(asObject(asObject(bundledDocument().components).responses).RateLimited).headers)).map(([h, v]) => [
      h,
      deref(v).schema as DeclaredSchema,
    ]),
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
