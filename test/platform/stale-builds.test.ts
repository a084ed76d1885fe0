// What a killed run leaves behind is removed by a later one: the server builds the suite makes in .data
// (test/support/server-process.ts) once a day old, and the throw-away PostgreSQL folders (in /dev/shm
// they hold memory) once an hour old with no server running on them; what a run still going uses is kept.
import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { removeStaleThrowawayFolders } from "../../src/db/embedded.ts";
import { removeStaleBuilds } from "../support/server-process.ts";

const data = path.resolve(import.meta.dirname, "../../.data");
const age = (folder: string, ms: number) => {
  const then = new Date(Date.now() - ms);
  utimesSync(folder, then, then);
};

describe("what a killed run left", () => {
  it("removes a server build a day old and keeps a recent one", () => {
    mkdirSync(data, { recursive: true });
    const prefix = `stale-build-test-${process.pid}-`;
    const old = mkdtempSync(path.join(data, prefix));
    const recent = mkdtempSync(path.join(data, prefix));
    writeFileSync(path.join(old, "main.js"), "");
    age(old, 2 * 24 * 3600_000);
    try {
      expect(removeStaleBuilds(prefix)).toEqual([path.basename(old)]);
      expect(existsSync(old)).toBe(false);
      expect(existsSync(recent)).toBe(true);
    } finally {
      rmSync(old, { recursive: true, force: true });
      rmSync(recent, { recursive: true, force: true });
    }
  });

  it("removes a throw-away PostgreSQL folder an hour old with no server on it, and keeps a running or recent one", () => {
    const parent = mkdtempSync(path.join(tmpdir(), "stale-pg-test-"));
    const folder = (running: boolean, ageMs: number) => {
      const f = mkdtempSync(path.join(parent, "hrms-x-"));
      mkdirSync(path.join(f, "data"));
      // postmaster.pid: its first line the postmaster's pid (this test's process stands in for a live one)
      if (running) writeFileSync(path.join(f, "data", "postmaster.pid"), `${process.pid}\n/data\n0\n5432\n`);
      age(f, ageMs);
      return f;
    };
    const left = folder(false, 2 * 3600_000);
    const running = folder(true, 2 * 3600_000);
    const recent = folder(false, 60_000);
    try {
      expect(removeStaleThrowawayFolders("hrms-x-", parent)).toEqual([left]);
      expect([existsSync(left), existsSync(running), existsSync(recent)]).toEqual([false, true, true]);
    } finally {
      rmSync(parent, { recursive: true, force: true });
    }
  });
});
