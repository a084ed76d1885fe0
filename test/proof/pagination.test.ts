// Every paginated list takes `page` from 1 to 10 000: beyond is a 400 naming
// `query.page` (never a silent clamp, never an unbounded OFFSET), the last allowed page answers
// (an empty page). Derived from generated/openapi.json, so a new list is covered.
import { beforeAll, describe, expect, it } from "vitest";
import { signupTenant, type TenantSession, useTestApp } from "../support/app.ts";
import { markGeneric } from "../support/recorder.ts";
import { operations } from "./openapi.ts";
import { enableAllModules } from "./world.ts";

markGeneric();
const t = useTestApp();

let owner: TenantSession;
beforeAll(async () => {
  owner = await signupTenant(t, { company: "Pages Co" });
  await enableAllModules(owner);
});

describe("page bounds of every paginated list", () => {
  const lists = operations().filter((op) => op.method === "get" && !op.pathParams.length && op.queryParams.some((p) => p.name === "page"));
  it(`page 10 001 is a 400 naming query.page, page 10 000 allowed (${lists.length} lists)`, async () => {
    expect(lists.length).toBeGreaterThan(30);
    for (const op of lists) {
      if (op.queryParams.some((p) => p.required)) continue;
      const over = await owner.agent.get(`${op.path}?page=10001`);
      expect(over.status, `${op.operationId}: ${JSON.stringify(over.body)}`).toBe(400);
      expect(over.body.details.map((d: { path: string }) => d.path)).toEqual(["query.page"]);
      const last = await owner.agent.get(`${op.path}?page=10000`);
      // allowed (a list may still answer 404 for a missing prerequisite, e.g. no current leave period)
      expect([200, 404], `${op.operationId}: ${JSON.stringify(last.body)}`).toContain(last.status);
      if (last.status === 200) expect(last.body.data, op.operationId).toEqual([]);
    }
  });
});
