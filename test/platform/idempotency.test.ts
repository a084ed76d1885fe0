// Idempotency-Key on every POST of a caller (src/http/idempotency.ts): a retry with the
// same key and request replays the first answer without doing the work again, errors included;
// another request with the key is a 422; a retry while the first runs is a 409; concurrent
// duplicates never both run; keys belong to the company and the caller; expired keys are pruned.
import { describe, expect, it } from "vitest";
import { asArray, asObject, deref, documentOperationsOf } from "../support/document.ts";
import { pruneIdempotencyKeys } from "../../src/platform/idempotency.ts";
import { addMember, expectDetails, expectError, signupTenant, useTestApp } from "../support/app.ts";
import { employeeInput } from "../support/employees.ts";
import { expectServerError } from "../support/recorder.ts";
import { addDays } from "../../src/lib/dates.ts";
import { createType, grant, leaveWorld, nextWeekday, today } from "../leave/fixtures.ts";
import { api } from "../support/api.ts";

const t = useTestApp();
const KEY = "Idempotency-Key";

const leaveRequests = async (tenantId: string) =>
  Number((await t.query<{ n: string }>(`SELECT count(*) AS n FROM leave_requests WHERE tenant_id = $1`, [tenantId]))[0].n);
const employeesNamed = async (tenantId: string, first: string) =>
  Number(
    (await t.query<{ n: string }>(`SELECT count(*) AS n FROM employees WHERE tenant_id = $1 AND first_name = $2`, [tenantId, first]))[0].n,
  );

describe("the document: Idempotency-Key on every POST of a caller", () => {
  it("every non-public POST takes the header and declares its 409 and 422 and the replay header; no other operation", () => {
    let count = 0;
    for (const { method, op } of documentOperationsOf()) {
      const id = String(op.operationId);
      const responses = asObject(op.responses);
      const takes = asArray(op.parameters).some((p) => asObject(p).$ref === "#/components/parameters/IdempotencyKey");
      expect(takes, id).toBe(method === "post" && op["x-public"] !== true && op["x-idempotency"] !== "refused");
      if (!takes) continue;
      count++;
      expect(asObject(responses["409"]).$ref, id).toBe("#/components/responses/RequestInProgress");
      expect(asObject(responses["422"]).$ref, id).toBe("#/components/responses/IdempotencyKeyReused");
      for (const [status, r] of Object.entries(responses))
        if (status.startsWith("2")) expect(Object.keys(asObject(asObject(r).headers)), id).toContain("Idempotent-Replayed");
    }
    expect(count).toBeGreaterThan(60);
  });

  it("no operation whose answer holds a secret takes a key: it is declared refused (a kept answer would keep the secret)", () => {
    /** Whether a schema has a property named `secret`, at any depth (through $ref, allOf/oneOf/anyOf, items). */
    const holdsSecret = (node: unknown, seen = new Set<unknown>()): boolean => {
      if (typeof node !== "object" || node === null) return false;
      const s = deref(node);
      if (seen.has(s)) return false;
      seen.add(s);
      const properties = asObject(s.properties);
      if ("secret" in properties) return true;
      const parts = [...Object.values(properties), ...asArray(s.allOf), ...asArray(s.oneOf), ...asArray(s.anyOf), s.items];
      return parts.some((p) => p && holdsSecret(p, seen));
    };
    const refusing: string[] = [];
    for (const { method, op } of documentOperationsOf()) {
      if (method !== "post" || op["x-public"] === true) continue;
      const id = String(op.operationId);
      const secret = Object.entries(asObject(op.responses)).some(
        ([status, r]) => status.startsWith("2") && holdsSecret(asObject(asObject(deref(r).content)["application/json"]).schema),
      );
      const refs = asArray(op.parameters).map((p) => asObject(p).$ref);
      if (!secret) continue;
      refusing.push(id);
      expect(refs, id).toContain("#/components/parameters/IdempotencyKeyRefused");
      expect(refs, id).not.toContain("#/components/parameters/IdempotencyKey");
    }
    expect(refusing.sort()).toEqual(["createApiCredential", "createWebhookEndpoint", "rotateApiCredential", "rotateWebhookSecret"]);
  });
});

describe("createApiCredential, rotateApiCredential, createWebhookEndpoint, rotateWebhookSecret: no key", () => {
  it("refuse an Idempotency-Key with a 400 naming the header, and keep nothing", async () => {
    const o = await signupTenant(t);
    const refused = async (res: { status: number; body: unknown }) => {
      const e = expectError(res, 400, "validation_failed");
      expect(e.details).toEqual([{ path: "headers.idempotency-key", message: expect.stringContaining("not accepted by this operation") }]);
    };
    await refused(
      await api(o.agent).op("createApiCredential", { body: { name: "Sync", scopes: ["employees:read"] }, headers: { [KEY]: "c-1" } }),
    );
    const cred = (
      await api(o.agent)
        .op("createApiCredential", { body: { name: "Sync", scopes: ["employees:read"] } })
        .expect(201)
    ).body.data;
    await refused(
      await api(o.agent).op("rotateApiCredential", { params: { id: cred.credential.id }, body: {}, headers: { [KEY]: "c-2" } }),
    );
    await refused(
      await api(o.agent).op("createWebhookEndpoint", { body: { url: "https://hooks.example.com/x" }, headers: { [KEY]: "w-1" } }),
    );
    const hook = (
      await api(o.agent)
        .op("createWebhookEndpoint", { body: { url: "https://hooks.example.com/x" } })
        .expect(201)
    ).body.data;
    await refused(await api(o.agent).op("rotateWebhookSecret", { params: { id: hook.endpoint.id }, headers: { [KEY]: "w-2" } }));
    expect(await t.query(`SELECT key FROM idempotency_keys WHERE tenant_id = $1`, [o.tenantId])).toEqual([]);
  });
});

describe("createLeaveRequest, createEmployee: Idempotency-Key", () => {
  it("createLeaveRequest: a retry with the same key replays the 201 and its body; one leave request, not two", async () => {
    const w = await leaveWorld(t);
    const type = await createType(w.hr.agent);
    await grant(w.hr.agent, w.employeeId, type.id, "10");
    const from = nextWeekday(addDays(today(), 14), 1);
    const body = { employee_id: w.employeeId, leave_type_id: type.id, from_date: from, to_date: addDays(from, 1) };
    const first = await api(w.hr.agent).op("createLeaveRequest", { body, headers: { [KEY]: '"retry-1"' } });
    expect(first.status).toBe(201);
    expect(first.headers["idempotent-replayed"]).toBeUndefined();
    // the bare form of the same key, the body's fields in another order: the same request
    const reordered = { to_date: body.to_date, from_date: from, leave_type_id: type.id, employee_id: w.employeeId };
    const retry = await api(w.hr.agent).op("createLeaveRequest", { body: reordered, headers: { [KEY]: "retry-1" } });
    expect(retry.status).toBe(201);
    expect(retry.headers["idempotent-replayed"]).toBe("true");
    expect(retry.body).toEqual(first.body);
    expect(await leaveRequests(w.owner.tenantId)).toBe(1);
    // without a key every POST runs: the same dates now overlap the first request
    expectError(await api(w.hr.agent).op("createLeaveRequest", { body }), 409, "conflict");
  });

  it("createLeaveRequest: the same key with another body is a 422 and does nothing", async () => {
    const w = await leaveWorld(t);
    const type = await createType(w.hr.agent);
    await grant(w.hr.agent, w.employeeId, type.id, "10");
    const from = nextWeekday(addDays(today(), 21), 1);
    const body = { employee_id: w.employeeId, leave_type_id: type.id, from_date: from, to_date: from };
    await api(w.hr.agent)
      .op("createLeaveRequest", { body, headers: { [KEY]: "k-422" } })
      .expect(201);
    const other = await api(w.hr.agent).op("createLeaveRequest", {
      body: { ...body, from_date: addDays(from, 7), to_date: addDays(from, 7) },
      headers: { [KEY]: "k-422" },
    });
    const err = expectError(other, 422, "idempotency_key_reused");
    expect(err.details).toEqual([{ path: "headers.idempotency-key", message: "was used with another request" }]);
    // another operation with the key is another request too
    expectError(
      await api(w.hr.agent).op("createEmployee", { body: employeeInput(), headers: { [KEY]: "k-422" } }),
      422,
      "idempotency_key_reused",
    );
    expect(await leaveRequests(w.owner.tenantId)).toBe(1);
  });

  it("createLeaveRequest: identical requests at once - one runs, the others answer 409 or the replay; one leave request", async () => {
    const w = await leaveWorld(t);
    const type = await createType(w.hr.agent);
    await grant(w.hr.agent, w.employeeId, type.id, "10");
    const from = nextWeekday(addDays(today(), 28), 1);
    const body = { employee_id: w.employeeId, leave_type_id: type.id, from_date: from, to_date: addDays(from, 2) };
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => api(w.hr.agent).op("createLeaveRequest", { body, headers: { [KEY]: "at-once" } })),
    );
    const ran = answers.filter((r) => r.status === 201 && r.headers["idempotent-replayed"] === undefined);
    expect(ran).toHaveLength(1);
    for (const r of answers) {
      if (r === ran[0]) continue;
      if (r.status === 409) expectError(r, 409, "request_in_progress");
      else {
        expect(r.status).toBe(201);
        expect(r.headers["idempotent-replayed"]).toBe("true");
        expect(r.body).toEqual(ran[0].body);
      }
    }
    expect(await leaveRequests(w.owner.tenantId)).toBe(1);
    // once answered, a retry gets the answer
    const later = await api(w.hr.agent).op("createLeaveRequest", { body, headers: { [KEY]: "at-once" } });
    expect(later.status).toBe(201);
    expect(later.body).toEqual(ran[0].body);
  });

  it("createLeaveRequest: an error is the request's answer and is replayed, even after the state changed", async () => {
    const w = await leaveWorld(t);
    const type = await createType(w.hr.agent);
    const from = nextWeekday(addDays(today(), 35), 1);
    const body = { employee_id: w.employeeId, leave_type_id: type.id, from_date: from, to_date: from };
    const first = expectError(await api(w.hr.agent).op("createLeaveRequest", { body, headers: { [KEY]: "no-balance" } }), 409, "conflict");
    await grant(w.hr.agent, w.employeeId, type.id, "5");
    const retry = await api(w.hr.agent).op("createLeaveRequest", { body, headers: { [KEY]: "no-balance" } });
    expectError(retry, 409, "conflict");
    expect(retry.headers["idempotent-replayed"]).toBe("true");
    expect(retry.body).toEqual(first);
    expect(await leaveRequests(w.owner.tenantId)).toBe(0);
    // a new key is a new request
    await api(w.hr.agent)
      .op("createLeaveRequest", { body, headers: { [KEY]: "with-balance" } })
      .expect(201);
  });

  it("createEmployee: a 5xx is not kept - the key is released and a retry runs the request", async () => {
    const owner = await signupTenant(t);
    const body = employeeInput({ first_name: "Failing" });
    await t.query(`CREATE FUNCTION idempotency_test_fail() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'boom'; END $$`);
    await t.query(
      `CREATE TRIGGER idempotency_test_fail BEFORE INSERT ON employees FOR EACH ROW ` +
        `WHEN (NEW.first_name = 'Failing') EXECUTE FUNCTION idempotency_test_fail()`,
    );
    try {
      expectServerError(); // the injected failure is the point of this test
      expectError(await api(owner.agent).op("createEmployee", { body, headers: { [KEY]: "fails-once" } }), 500, "internal");
    } finally {
      await t.query(`DROP TRIGGER idempotency_test_fail ON employees`);
      await t.query(`DROP FUNCTION idempotency_test_fail()`);
    }
    expect(await t.query(`SELECT 1 FROM idempotency_keys WHERE tenant_id = $1`, [owner.tenantId])).toHaveLength(0);
    const retry = await api(owner.agent)
      .op("createEmployee", { body, headers: { [KEY]: "fails-once" } })
      .expect(201);
    expect(retry.headers["idempotent-replayed"]).toBeUndefined();
    expect(await employeesNamed(owner.tenantId, "Failing")).toBe(1);
  });

  it("createEmployee: keys belong to the caller and the company - another member's or company's equal key runs", async () => {
    const owner = await signupTenant(t);
    const hr = await addMember(t, owner, "hr");
    const other = await signupTenant(t);
    const a = employeeInput({ first_name: "Keyed", email: "keyed.a@example.test" });
    const body = (email: string) => (email === a.email ? a : { ...a, email });
    await api(owner.agent)
      .op("createEmployee", { body: body("keyed.a@example.test"), headers: { [KEY]: "shared" } })
      .expect(201);
    const replay = await api(owner.agent)
      .op("createEmployee", { body: body("keyed.a@example.test"), headers: { [KEY]: "shared" } })
      .expect(201);
    expect(replay.headers["idempotent-replayed"]).toBe("true");
    const byHr = await api(hr.agent)
      .op("createEmployee", { body: body("keyed.b@example.test"), headers: { [KEY]: "shared" } })
      .expect(201);
    expect(byHr.headers["idempotent-replayed"]).toBeUndefined();
    await api(other.agent)
      .op("createEmployee", { body: body("keyed.a@example.test"), headers: { [KEY]: "shared" } })
      .expect(201);
    expect(await employeesNamed(owner.tenantId, "Keyed")).toBe(2);
    expect(await employeesNamed(other.tenantId, "Keyed")).toBe(1);
    const rows = await t.query<{ caller: string }>(`SELECT caller FROM idempotency_keys WHERE tenant_id = $1 ORDER BY caller`, [
      owner.tenantId,
    ]);
    expect(rows.map((r) => r.caller).sort()).toEqual([`user:${hr.userId}`, `user:${owner.userId}`].sort());
  });

  it("createEmployee: an expired key runs again and is pruned; an empty key is a 400 naming the header", async () => {
    const owner = await signupTenant(t);
    const body = employeeInput({ first_name: "Expiring" });
    await api(owner.agent)
      .op("createEmployee", { body, headers: { [KEY]: "expiring" } })
      .expect(201);
    const [row] = await t.query<{ hours: number }>(
      `SELECT round(extract(epoch FROM expires_at - created_at) / 3600)::int AS hours FROM idempotency_keys WHERE tenant_id = $1`,
      [owner.tenantId],
    );
    expect(row.hours).toBe(24);
    await t.query(`UPDATE idempotency_keys SET expires_at = now() - interval '1 second' WHERE tenant_id = $1`, [owner.tenantId]);
    // the record exists, so running again is the duplicate e-mail's 409 - proof that it ran
    expectError(await api(owner.agent).op("createEmployee", { body, headers: { [KEY]: "expiring" } }), 409, "conflict");
    await t.query(`UPDATE idempotency_keys SET expires_at = now() - interval '1 second' WHERE tenant_id = $1`, [owner.tenantId]);
    expect(await pruneIdempotencyKeys()).toBeGreaterThanOrEqual(1);
    expect(await t.query(`SELECT 1 FROM idempotency_keys WHERE tenant_id = $1`, [owner.tenantId])).toHaveLength(0);
    const empty = expectDetails(
      await api(owner.agent).op("createEmployee", { body: employeeInput(), headers: { [KEY]: '""' } }),
      400,
      "validation_failed",
    );
    expect(empty.details[0].path).toBe("headers.idempotency-key");
    expectError(
      await api(owner.agent).op("createEmployee", { body: employeeInput(), headers: { [KEY]: "x".repeat(256) } }),
      400,
      "validation_failed",
    );
  });
});
