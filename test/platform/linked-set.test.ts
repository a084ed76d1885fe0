// The set of requests in progress (src/lib/linked-set.ts): a Set's behaviour, without a hash table.
import { describe, expect, it } from "vitest";
import { type Links, LinkedSet } from "../../src/lib/linked-set.ts";

interface Item extends Links<Item> {
  n: number;
}
const items = (k: number): Item[] => Array.from({ length: k }, (_, n) => ({ n }));
const ns = (s: LinkedSet<Item>) => [...s].map((i) => i.n);

describe("LinkedSet", () => {
  it("adds once, deletes from the head, middle and tail, and counts", () => {
    const s = new LinkedSet<Item>();
    const [a, b, c, d] = items(4);
    for (const i of [a, b, c, d, b]) s.add(i);
    expect(ns(s)).toEqual([0, 1, 2, 3]);
    expect(s.size).toBe(4);
    expect(s.delete(b)).toBe(true);
    expect(s.delete(b)).toBe(false);
    expect(s.delete(a)).toBe(true);
    expect(s.delete(d)).toBe(true);
    expect(ns(s)).toEqual([2]);
    expect(s.has(c) && !s.has(a)).toBe(true);
    expect(s.delete(c)).toBe(true);
    expect(ns(s)).toEqual([]);
    expect(s.size).toBe(0);
    s.add(a);
    expect(ns(s)).toEqual([0]);
  });

  it("keeps nothing of a deleted item: its links are cleared", () => {
    const s = new LinkedSet<Item>();
    const [a, b, c] = items(3);
    for (const i of [a, b, c]) s.add(i);
    s.delete(b);
    expect([b.linkedPrev, b.linkedNext, b.linkedIn]).toEqual([undefined, undefined, undefined]);
    expect(a.linkedNext).toBe(c);
    expect(c.linkedPrev).toBe(a);
  });

  it("an item belongs to one set at a time", () => {
    const [a] = items(1);
    new LinkedSet<Item>().add(a);
    expect(() => new LinkedSet<Item>().add(a)).toThrow(/another set/);
  });

  it("iterates on when the current item, or the one after it, is deleted during its turn; visits items added meanwhile", () => {
    const s = new LinkedSet<Item>();
    const all = items(6);
    for (const i of all.slice(0, 5)) s.add(i);
    const seen: number[] = [];
    for (const i of s) {
      seen.push(i.n);
      if (i.n === 1) s.delete(i);
      if (i.n === 2) s.delete(all[3]);
      if (i.n === 4) s.add(all[5]);
    }
    expect(seen).toEqual([0, 1, 2, 4, 5]);
    expect(ns(s)).toEqual([0, 2, 4, 5]);
  });
});
