// The operation table (generated/registry.ts): every flag the request path acts on is written there
// by `make generate` (scripts/build/operation-flags.mjs) - read here without an app, a server or a
// database, as a reviewer reads it in a diff.
import { describe, expect, it } from "vitest";
import { type OperationId, type OperationMeta, operationTable } from "../../generated/registry.ts";

const table = operationTable as Record<OperationId, OperationMeta>;
const ops = Object.entries(table) as [OperationId, OperationMeta][];

describe("generated/registry.ts: the flags of every operation", () => {
  it("raw bytes are kept where the document says x-raw-body (the billing webhook's signature), nowhere else", () => {
    expect(ops.filter(([, m]) => m.body?.keepRaw).map(([id]) => id)).toEqual(["receiveBillingWebhook"]);
    expect(table.receiveBillingWebhook.body).toEqual({ limit: 1048576, keepRaw: true });
  });

  it("every JSON body has its limit; the imports their larger one", () => {
    for (const [id, m] of ops) if (m.body) expect(m.body.limit, id).toBeGreaterThan(0);
    expect(table.updateEmployee.body).toEqual({ limit: 65536, keepRaw: false });
  });

  it("If-Match writes name the GET of their path as the version they are checked against", () => {
    expect(table.updateEmployee).toMatchObject({ ifMatch: "required", readOperation: "getEmployee", etag: false });
    expect(table.getEmployee).toMatchObject({ etag: true, ifMatch: null, readOperation: null });
    for (const [id, m] of ops.filter(([, m]) => m.ifMatch)) {
      const read = table[m.readOperation as OperationId];
      expect(read, id).toMatchObject({ method: "get", path: m.path, etag: true });
    }
  });

  it("replica reads are GETs; Idempotency-Key on non-public POSTs only; a session starts at sign-in", () => {
    for (const [id, m] of ops) {
      if (m.readReplica) expect(m.method, id).toBe("get");
      if (m.idempotent) expect([m.method, m.public], id).toEqual(["post", false]);
    }
    expect(ops.filter(([, m]) => m.readReplica).length).toBeGreaterThan(0);
    expect(table.signIn.startsSession).toBe(true);
    expect(table.getEmployee.startsSession).toBe(false);
    expect(table.getEmployee.cacheControl).toBe("no-store");
  });

  it("cursor lists say whether they have tombstones; a form body is the OAuth token request's", () => {
    expect(ops.filter(([, m]) => m.cursor).length).toBeGreaterThan(0);
    for (const [id, m] of ops) if (m.cursor) expect([m.method, typeof m.cursor.tombstones], id).toEqual(["get", "boolean"]);
    expect(ops.filter(([, m]) => m.form).length).toBeGreaterThan(0);
  });
});
