// The fingerprint of what a run's calculation read, a pure function of its rows: equal digests let
// processing number the stored slips instead of calculating again (docs/performance.md, "Scale of the work").
import { createHash, type Hash } from "node:crypto";
import { statSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** This file (the bundle, in production) as built: a draft calculated by another release is calculated again. */
const BUILD = (() => {
  try {
    const f = statSync(fileURLToPath(import.meta.url));
    return `${f.size}:${f.mtimeMs}`;
  } catch {
    return "unknown";
  }
})();

/** Accumulates the rows read, part by part; `end()` answers the hex digest. */
export class InputsDigest {
  private readonly hash: Hash = createHash("sha256").update(BUILD);

  /** A list is taken as a set of rows: a read without an ORDER BY may return them in another order. */
  add(label: string, rows: unknown): this {
    this.hash.update(label).update("\0");
    if (Array.isArray(rows)) {
      const each = rows.map((r) => JSON.stringify(r) ?? "undefined").sort();
      for (const r of each) this.hash.update(r).update("\n");
    } else this.hash.update(JSON.stringify(rows) ?? "undefined");
    this.hash.update("\0");
    return this;
  }

  end(): string {
    return this.hash.digest("hex");
  }
}
