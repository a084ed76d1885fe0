// The generic usage limiter (src/platform/limits.ts) that uploads and the AI helpers share:
// fixed-window counters in PostgreSQL, counted against several limits at once or against none,
// exact under concurrent takers, a new window once the old one has ended, and pruning.
import { describe, expect, it } from "vitest";
import { pruneUsageCounters, takeUse, type UsageLimit } from "../../src/platform/limits.ts";
import { useTestApp } from "../support/app.ts";

const t = useTestApp();
let n = 0;
const key = (what: string) => `test:${what}:${process.pid}:${n++}`;
const HOUR = 3_600_000;

async function uses(k: string): Promise<number | null> {
  const rows = await t.query<{ uses: number }>("SELECT uses FROM usage_counters WHERE key = $1", [k]);
  return rows[0]?.uses ?? null;
}

describe("takeUse: the usage limiter of uploads and AI helpers", () => {
  it("allows max uses in a window, then refuses with the seconds left of the window", async () => {
    const limit: UsageLimit = { key: key("user"), max: 3, windowMs: HOUR, label: "per user per hour" };
    for (let i = 0; i < 3; i++) expect(await takeUse([limit])).toEqual({ allowed: true });
    const refused = await takeUse([limit]);
    expect(refused.allowed).toBe(false);
    if (refused.allowed) return;
    expect(refused.limit).toBe(limit);
    expect(Number.isInteger(refused.retryAfterSeconds)).toBe(true);
    expect(refused.retryAfterSeconds).toBeGreaterThan(0);
    expect(refused.retryAfterSeconds).toBeLessThanOrEqual(3600);
    // a refused use is not counted
    expect(await uses(limit.key)).toBe(3);
  });

  it("counts a use against every limit or none: a refusal by the company's limit costs the user nothing", async () => {
    const company: UsageLimit = { key: key("tenant"), max: 2, windowMs: HOUR };
    const alice: UsageLimit = { key: key("alice"), max: 5, windowMs: HOUR };
    const bob: UsageLimit = { key: key("bob"), max: 5, windowMs: HOUR };
    expect((await takeUse([alice, company])).allowed).toBe(true);
    expect((await takeUse([bob, company])).allowed).toBe(true);
    const refused = await takeUse([alice, company]);
    expect(refused).toMatchObject({ allowed: false, limit: company });
    expect(await uses(alice.key)).toBe(1);
    expect(await uses(bob.key)).toBe(1);
    expect(await uses(company.key)).toBe(2);
  });

  it("never lets concurrent takers past the maximum", async () => {
    const limit: UsageLimit = { key: key("burst"), max: 4, windowMs: HOUR };
    const company: UsageLimit = { key: key("burst-company"), max: 100, windowMs: HOUR };
    const answers = await Promise.all(Array.from({ length: 12 }, () => takeUse([company, limit])));
    expect(answers.filter((a) => a.allowed)).toHaveLength(4);
    expect(await uses(limit.key)).toBe(4);
    expect(await uses(company.key)).toBe(4);
  });

  it("starts a new window once the old one has ended, and prunes ended windows", async () => {
    const limit: UsageLimit = { key: key("window"), max: 1, windowMs: HOUR };
    expect((await takeUse([limit])).allowed).toBe(true);
    expect((await takeUse([limit])).allowed).toBe(false);
    await t.query("UPDATE usage_counters SET window_ends = now() - interval '1 second' WHERE key = $1", [limit.key]);
    expect((await takeUse([limit])).allowed).toBe(true);
    expect(await uses(limit.key)).toBe(1);
    const ended = key("ended");
    await t.query("INSERT INTO usage_counters (key, uses, window_ends) VALUES ($1, 7, now() - interval '1 minute')", [ended]);
    expect(await pruneUsageCounters()).toBeGreaterThanOrEqual(1);
    expect(await uses(ended)).toBeNull();
    expect(await uses(limit.key)).toBe(1);
  });
});
