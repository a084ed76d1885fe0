// The fingerprint of what a run's calculation read: a SHA-256 of every input row, in the order read,
// once for the company's facts and once per batch of employees. The calculation is a pure function
// of these rows (no clock, no randomness), so equal digests prove that calculating again would
// write the same slips: processing a draft whose inputs are unchanged numbers and pays the stored
// slips instead of computing them again (calculation.ts, processStored).
import { createHash, type Hash } from "node:crypto";
import { statSync } from "node:fs";
import { fileURLToPath } from "node:url";

/**
 * The build of the server that computes: this file (the bundle, in production) as written by the
 * build. A draft calculated by another release - whose rules may differ - is calculated again
 * rather than reused.
 */
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

  /**
   * Adds a part of the inputs (rows as read: Dates and decimals serialise to exact text). A list is
   * taken as a set of rows: a read without an ORDER BY may return the same rows in another order.
   */
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
