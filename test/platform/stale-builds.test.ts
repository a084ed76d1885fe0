// The server builds the suite makes in .data (test/support/server-process.ts): what a killed run left
// is removed by a later run once a day old; a build of a run still going is left alone.
import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { removeStaleBuilds } from "../support/server-process.ts";

const data = path.resolve(import.meta.dirname, "../../.data");

describe("the suite's server builds in .data", () => {
  it("removes a build a day old and keeps a recent one", () => {
    mkdirSync(data, { recursive: true });
    const prefix = `stale-build-test-${process.pid}-`;
    const old = mkdtempSync(path.join(data, prefix));
    const recent = mkdtempSync(path.join(data, prefix));
    writeFileSync(path.join(old, "main.js"), "");
    const twoDaysAgo = new Date(Date.now() - 2 * 24 * 3600_000);
    utimesSync(old, twoDaysAgo, twoDaysAgo);
    try {
      expect(removeStaleBuilds(prefix)).toEqual([path.basename(old)]);
      expect(existsSync(old)).toBe(false);
      expect(existsSync(recent)).toBe(true);
    } finally {
      rmSync(old, { recursive: true, force: true });
      rmSync(recent, { recursive: true, force: true });
    }
  });
});
