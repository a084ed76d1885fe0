// Jobs are declared by each area in src/modules/<area>/schedule.ts and discovered by `make generate`
// (generated/jobs.ts): every one is registered once, with its schedule.
import { readdirSync, existsSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { areaJobs } from "../../generated/jobs.ts";
import { allJobs } from "../../src/modules/jobs.ts";

describe("job registry", () => {
  it("holds the platform's jobs and every job the areas declare, each once with its schedule", () => {
    const byName = new Map(allJobs().map((j) => [j.name, j.cron]));
    expect(Object.fromEntries(byName)).toEqual({
      "mail.deliver": "* * * * *",
      "limits.prune-counters": "19 * * * *",
      "auth.prune-known-clients": "27 * * * *",
      "idempotency.prune-keys": "21 * * * *",
      "auth.signup-requests": "* * * * *",
      "auth.password-reset-requests": "* * * * *",
      "auth.prune-signup-requests": "23 * * * *",
      "employees.complete-exits": "5 * * * *",
      "leave.accrue": "15 0 * * *",
      "leave.expire": "30 0 * * *",
      "payroll.runs": "* * * * *",
      "privacy.purge": "25 * * * *",
      "recruitment.expire-offers": "10 * * * *",
      "utilities.remove-orphan-files": "40 * * * *",
      "integrations.deliver-webhooks": "* * * * *",
      "integrations.prune-events": "29 * * * *",
      "bulk.imports": "* * * * *",
      "bulk.prune-imports": "23 * * * *",
    });
  });

  it("discovers every area's schedule.ts (nothing listed by hand)", () => {
    const modules = path.resolve(import.meta.dirname, "../../src/modules");
    const declaring = readdirSync(modules).filter((a) => existsSync(path.join(modules, a, "schedule.ts")));
    expect(declaring.length).toBeGreaterThanOrEqual(4);
    const discovered = new Set(areaJobs.map((j) => j.name.split(".")[0]));
    for (const area of declaring) expect(discovered.has(area)).toBe(true);
  });
});
