// The one error type and its one code → status map (src/platform/errors.ts), below the HTTP layer.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { AppError, conflict, invalidField, notFound, STATUS_OF } from "../../src/platform/errors.ts";

describe("AppError", () => {
  it("takes its status from the code, through one map that covers exactly the documented codes", () => {
    const doc = JSON.parse(readFileSync(path.resolve(import.meta.dirname, "../../generated/openapi.json"), "utf8"));
    expect(Object.keys(STATUS_OF).sort()).toEqual([...doc.components.schemas.Error.properties.code.enum].sort());
    for (const [code, status] of Object.entries(STATUS_OF)) expect(new AppError(code as keyof typeof STATUS_OF, "x").status).toBe(status);
    expect([notFound().status, conflict("x").status, invalidField("body.a", "is wrong").status]).toEqual([404, 409, 400]);
  });

  it("answers 410 only for a link token that was used or expired", () => {
    expect(new AppError("invalid_token", "used", undefined, undefined, { gone: true }).status).toBe(410);
    expect(new AppError("invalid_token", "unknown").status).toBe(400);
    expect(new AppError("conflict", "x", undefined, undefined, { gone: true }).status).toBe(409);
  });
});
