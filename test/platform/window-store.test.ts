// The window store (src/db/windows.ts, src/db/windows-batched.ts) every counting limit goes through:
// its arithmetic at set instants (a window opens at the first use and a use at its end opens the
// next), the exact backend under concurrency (N parallel counts count N; budgets taken all-or-none
// never let concurrent takers past a limit), and the batched backend (decided in memory, shared
// through the same counters at each sync).
import { describe, expect, it } from "vitest";
import { BatchedWindows } from "../../src/db/windows-batched.ts";
import { exactWindows, type WindowLimit } from "../../src/db/windows.ts";
import { useTestApp } from "../support/app.ts";

const t = useTestApp();
let n = 0;
/** A limit of its own: `max` uses per `windowSeconds`. */
const limitOf = (max: number, windowSeconds = 60): WindowLimit => ({
  key: `test:${process.pid}:${n++}`,
  policy: "test",
  max,
  windowSeconds,
  what: "Test",
  per: `uses per ${windowSeconds} s`,
});
/** A set instant (machine time, ms): the store takes the instant of each count. */
const T0 = Date.parse("2026-03-31T18:29:30.000Z");
const at = (ms: number) => T0 + ms;

async function stored(key: string): Promise<{ uses: number; ends: number } | null> {
  const [row] = await t.query<{ uses: number; ends: Date }>("SELECT uses, window_ends AS ends FROM usage_counters WHERE key = $1", [key]);
  return row ? { uses: row.uses, ends: row.ends.getTime() } : null;
}

describe("exact backend: the arithmetic of a window at set instants", () => {
  it("a window opens at the first count and lasts windowSeconds; its last millisecond is in it, its end opens the next", async () => {
    const limit = limitOf(5);
    const first = await exactWindows.count([limit], at(0));
    expect(first.states[0]).toMatchObject({ used: 1, remaining: 4, resetSeconds: 60 });
    expect(await stored(limit.key)).toEqual({ uses: 1, ends: at(60_000) });
    const last = await exactWindows.count([limit], at(59_999));
    expect(last.states[0]).toMatchObject({ used: 2, remaining: 3, resetSeconds: 1 });
    const next = await exactWindows.count([limit], at(60_000));
    expect(next.states[0]).toMatchObject({ used: 1, remaining: 4, resetSeconds: 60 });
    expect(await stored(limit.key)).toEqual({ uses: 1, ends: at(120_000) });
  });

  it("take (a budget): max uses, then refused with the seconds left of the window, rounded up; a refused use counts nothing", async () => {
    const limit = limitOf(3);
    for (const ms of [0, 10_000, 20_000]) expect((await exactWindows.take([limit], at(ms))).refused).toBeNull();
    expect((await exactWindows.take([limit], at(30_000))).refused).toEqual({ limit, retryAfterSeconds: 30 });
    expect((await exactWindows.take([limit], at(59_001))).refused).toEqual({ limit, retryAfterSeconds: 1 });
    expect((await stored(limit.key))?.uses).toBe(3);
    // the first use at the window's end is allowed, in a new window
    expect((await exactWindows.take([limit], at(60_000))).refused).toBeNull();
    expect(await stored(limit.key)).toEqual({ uses: 1, ends: at(120_000) });
  });

  it("take against several limits counts all or none: a refusal by the company's limit costs the user nothing", async () => {
    const company = limitOf(2, 3600);
    const alice = limitOf(5, 3600);
    const bob = limitOf(5, 3600);
    expect((await exactWindows.take([alice, company], at(0))).refused).toBeNull();
    expect((await exactWindows.take([bob, company], at(1_000))).refused).toBeNull();
    const refused = await exactWindows.take([alice, company], at(2_000));
    expect(refused.refused).toEqual({ limit: company, retryAfterSeconds: 3598 });
    expect((await stored(alice.key))?.uses).toBe(1);
    expect((await stored(bob.key))?.uses).toBe(1);
    expect((await stored(company.key))?.uses).toBe(2);
  });

  it("count (attempts): refused attempts count too, and the window does not move for them", async () => {
    const limit = limitOf(2, 900);
    expect((await exactWindows.count([limit], at(0))).refused).toBeNull();
    expect((await exactWindows.count([limit], at(1_000))).refused).toBeNull();
    expect((await exactWindows.count([limit], at(2_000))).refused).toEqual({ limit, retryAfterSeconds: 898 });
    expect((await exactWindows.count([limit], at(899_500))).refused).toEqual({ limit, retryAfterSeconds: 1 });
    expect(await stored(limit.key)).toEqual({ uses: 4, ends: at(900_000) });
    expect((await exactWindows.count([limit], at(900_000))).refused).toBeNull();
  });

  it("check counts nothing: refused while the window holds max, free at its end; the longest wait of several", async () => {
    const short = limitOf(1, 60);
    const long = limitOf(1, 900);
    expect((await exactWindows.check([short, long], at(0))).refused).toBeNull();
    await exactWindows.count([short, long], at(0));
    expect((await exactWindows.check([short, long], at(10_000))).refused).toEqual({ limit: long, retryAfterSeconds: 890 });
    expect((await exactWindows.check([short], at(59_999))).refused).toEqual({ limit: short, retryAfterSeconds: 1 });
    expect((await exactWindows.check([short], at(60_000))).refused).toBeNull();
    expect((await stored(short.key))?.uses).toBe(1);
  });

  it("clear forgets a key and every key under a prefix; prune removes the counters whose window ended", async () => {
    const base = `test:${process.pid}:clear:${n++}`;
    const limits = ["a|x", "a|y", "b"].map((k) => ({ ...limitOf(3), key: `${base}:${k}` }));
    await exactWindows.count(limits, at(0));
    await exactWindows.clear([], [`${base}:a|`]);
    expect(await stored(limits[0].key)).toBeNull();
    expect(await stored(limits[1].key)).toBeNull();
    expect((await stored(limits[2].key))?.uses).toBe(1);
    await exactWindows.clear([limits[2].key]);
    expect(await stored(limits[2].key)).toBeNull();
    const ended = limitOf(3);
    const open = limitOf(3, 3600);
    await exactWindows.count([ended, open], at(0));
    expect(await exactWindows.prune(at(60_001))).toBeGreaterThanOrEqual(1);
    expect(await stored(ended.key)).toBeNull();
    expect((await stored(open.key))?.uses).toBe(1);
  });
});

describe("exact backend: concurrency", () => {
  it("N parallel counts of one counter count N, each seeing a different total", async () => {
    const limit = limitOf(1000);
    const answers = await Promise.all(Array.from({ length: 24 }, () => exactWindows.count([limit], at(0))));
    expect((await stored(limit.key))?.uses).toBe(24);
    expect(answers.map((a) => a.states[0].used).sort((x, y) => x - y)).toEqual(Array.from({ length: 24 }, (_, i) => i + 1));
  });

  it("N parallel takes of a budget of 4 (beside a larger shared one): exactly 4 allowed, each counted in both", async () => {
    const limit = limitOf(4, 3600);
    const company = limitOf(100, 3600);
    const answers = await Promise.all(Array.from({ length: 12 }, () => exactWindows.take([company, limit], at(0))));
    expect(answers.filter((a) => a.refused === null)).toHaveLength(4);
    expect((await stored(limit.key))?.uses).toBe(4);
    expect((await stored(company.key))?.uses).toBe(4);
  });
});

describe("batched backend: decided in memory, shared through the counters at each sync", () => {
  it("counts in memory up to max, refuses at once with the window's rest, opens the next window at its end", async () => {
    const limit = limitOf(3);
    const process1 = new BatchedWindows();
    for (const ms of [0, 1_000, 2_000]) expect(process1.take([limit], at(ms)).refused).toBeNull();
    expect(await stored(limit.key)).toBeNull(); // nothing written until a sync
    const refused = process1.take([limit], at(59_999));
    expect(refused.refused).toEqual({ limit, retryAfterSeconds: 1 });
    expect(refused.states[0]).toMatchObject({ used: 3, remaining: 0, resetSeconds: 1 });
    expect(process1.take([limit], at(60_000)).states[0]).toMatchObject({ used: 1, remaining: 2, resetSeconds: 60 });
  });

  it("two processes share one counter through sync: each learns the other's uses, the database holds the sum", async () => {
    const limit = limitOf(5);
    const a = new BatchedWindows();
    const b = new BatchedWindows();
    for (const ms of [0, 100, 200]) a.take([limit], at(ms));
    await a.sync(at(300));
    expect(await stored(limit.key)).toEqual({ uses: 3, ends: at(60_300) });
    b.take([limit], at(400));
    await b.sync(at(500));
    expect(await stored(limit.key)).toEqual({ uses: 4, ends: at(60_300) });
    // b now knows the 4: one use left for either
    expect(b.take([limit], at(600)).states[0]).toMatchObject({ used: 5, remaining: 0 });
    expect(b.take([limit], at(700)).refused).toEqual({ limit, retryAfterSeconds: 60 });
    await b.sync(at(800));
    await a.sync(at(900)); // nothing pending in a: it reads nothing, so still believes 3
    a.take([limit], at(1_000));
    await a.sync(at(1_100));
    expect((await stored(limit.key))?.uses).toBe(6);
    expect(a.usedUp(limit, at(1_200))).toEqual({ limit, retryAfterSeconds: 60 });
  });
});
