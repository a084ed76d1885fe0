// Outbound webhooks: deliveries received by a real HTTP server on loopback, verified with
// the reference `standardwebhooks` package; retries, 410, replay, rotation, the address rules, the
// delivery log and the event feed.
import dns from "node:dns/promises";
import os from "node:os";
import { Webhook } from "standardwebhooks";
import { describe, expect, it, vi } from "vitest";
import { publicLookup, refusedAddress } from "../../src/platform/events/outbound.ts";
import { DELIVER_JOB } from "../../src/platform/events/events.ts";
import { jobs } from "../../src/platform/jobs/queue.ts";
import { exposition } from "../../src/platform/metrics.ts";
import { expectDetails, expectError, signupTenant, type TenantSession, useTestApp } from "../support/app.ts";
import { employeeInput } from "../support/employees.ts";
import { api } from "../support/api.ts";
import { readBody, useWebhookReceiver } from "./fixtures.ts";

const t = useTestApp({ config: { webhookAllowLoopback: true } });

interface Received {
  path: string;
  headers: Record<string, string>;
  body: string;
}
const received: Received[] = [];
/** Status codes to answer with, in order (then 200). */
const answers: { status: number; headers?: Record<string, string> }[] = [];
const receiver = useWebhookReceiver(async (req, res) => {
  const body = await readBody(req);
  received.push({ path: req.url ?? "", headers: req.headers as Record<string, string>, body });
  const a = answers.shift() ?? { status: 200 };
  res.writeHead(a.status, a.headers).end(a.status >= 400 ? `failure ${a.status}` : "ok");
});

/** Runs the delivery job now (the test's configuration: loopback allowed unless overridden). */
const deliver = (overrides = {}) => jobs.runNow(DELIVER_JOB, t.configWith({ webhookAllowLoopback: true, ...overrides }));
/** Makes every pending delivery due now (retries are scheduled seconds to hours ahead). */
const dueNow = () => t.query(`UPDATE webhook_deliveries SET next_attempt_at = now() WHERE status = 'pending'`);
const deliveredTo = (path: string) => received.filter((r) => r.path === path);

async function endpoint(o: TenantSession, path: string, body: Record<string, unknown> = {}) {
  const res = await api(o.agent)
    .op("createWebhookEndpoint", { body: { url: `${receiver.base}${path}`, ...body } })
    .expect(201);
  return res.body.data as { endpoint: { id: string }; secret: string };
}

describe("createWebhookEndpoint, listWebhookEndpoints, getWebhookEndpoint: signed deliveries", () => {
  it("an employee change is delivered once, verified by standardwebhooks; a flipped byte or a stale timestamp fails", async () => {
    const o = await signupTenant(t);
    const { endpoint: ep, secret } = await endpoint(o, "/a", { event_types: ["employee.created", "employee.updated"] });
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    const list = (await api(o.agent).op("listWebhookEndpoints").expect(200)).body.data;
    expect(list).toEqual([expect.objectContaining({ id: ep.id, enabled: true, event_types: ["employee.created", "employee.updated"] })]);
    expect(JSON.stringify(list)).not.toContain(secret);
    await api(o.agent)
      .op("getWebhookEndpoint", { params: { id: ep.id } })
      .expect(200);

    const emp = (await o.agent.post("/api/employees").send(employeeInput()).expect(201)).body.data;
    await api(o.agent)
      .op("updateEmployee", { params: { employeeId: emp.id }, body: { designation: "Lead" } })
      .expect(200);
    await deliver();
    await deliver(); // nothing twice
    // deliveries are sent concurrently: no order among them (the feed has one)
    const got = deliveredTo("/a").sort((x, y) => JSON.parse(x.body).type.localeCompare(JSON.parse(y.body).type));
    expect(got.map((r) => JSON.parse(r.body).type)).toEqual(["employee.created", "employee.updated"]);
    const wh = new Webhook(secret);
    const payload = wh.verify(got[1].body, got[1].headers) as { type: string; data: { id: string; changes: unknown } };
    expect(payload).toMatchObject({
      type: "employee.updated",
      data: { id: emp.id, entity_type: "employee", changes: { designation: { to: "Lead" } } },
    });
    expect(got[0].headers["webhook-id"]).not.toBe(got[1].headers["webhook-id"]);

    const flipped = `${got[1].body.slice(0, 10)}${got[1].body[10] === "a" ? "b" : "a"}${got[1].body.slice(11)}`;
    expect(() => wh.verify(flipped, got[1].headers)).toThrow();
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      vi.setSystemTime(Date.now() + 10 * 60 * 1000); // the captured delivery, replayed ten minutes later
      expect(() => wh.verify(got[1].body, got[1].headers)).toThrow(/timestamp/i);
    } finally {
      vi.useRealTimers();
    }
    // another company's changes never reach this endpoint
    const other = await signupTenant(t);
    await other.agent.post("/api/employees").send(employeeInput()).expect(201);
    await deliver();
    expect(deliveredTo("/a")).toHaveLength(2);
  });

  it("refuses URLs that are not http(s) or name a non-public address", async () => {
    const o = await signupTenant(t);
    for (const url of [
      "ftp://example.com/x",
      "http://10.0.0.7/x",
      "http://169.254.169.254/latest",
      "http://[fd00::1]/x",
      "http://user:pw@example.com/",
    ]) {
      const e = expectDetails(await api(o.agent).op("createWebhookEndpoint", { body: { url } }), 400, "validation_failed");
      expect(e.details[0].path).toBe("body.url");
    }
    expect(refusedAddress("::ffff:10.1.2.3", false)).toMatch(/non-public/);
    expect(refusedAddress("::ffff:7f00:1", false)).toMatch(/loopback/);
    expect(refusedAddress("100.64.1.1", false)).toMatch(/non-public/);
    expect(refusedAddress("93.184.216.34", false)).toBeNull();
    expect(refusedAddress("2606:2800:220:1:248:1893:25c8:1946", false)).toBeNull();
  });
});

describe("listWebhookAttempts, updateWebhookEndpoint: retries, 410, the address check at connect time", () => {
  it("503, 503, 200: three attempts of one webhook-id in the delivery log, and in the metrics", async () => {
    const attempts = async (result: string) =>
      Number(new RegExp(`^hrms_webhook_delivery_attempts_total\\{result="${result}"\\} (\\S+)$`, "m").exec((await exposition()).body)?.[1]);
    const before = { retry: await attempts("retry"), succeeded: await attempts("succeeded") };
    const o = await signupTenant(t);
    const { endpoint: ep } = await endpoint(o, "/retry");
    await o.agent.post("/api/employees").send(employeeInput()).expect(201);
    answers.push({ status: 503 }, { status: 503 });
    await deliver();
    await dueNow();
    await deliver();
    await dueNow();
    await deliver();
    const got = deliveredTo("/retry");
    expect(got).toHaveLength(3);
    expect(new Set(got.map((r) => r.headers["webhook-id"])).size).toBe(1);
    const log = (
      await api(o.agent)
        .op("listWebhookAttempts", { params: { id: ep.id } })
        .expect(200)
    ).body;
    expect(log.data.map((a) => [a.attempt, a.status_code])).toEqual([
      [3, 200],
      [2, 503],
      [1, 503],
    ]);
    expect(log.data[1].response_body).toBe("failure 503");
    const [d] = await t.query(`SELECT status, attempts FROM webhook_deliveries WHERE endpoint_id = $1`, [ep.id]);
    expect(d).toEqual({ status: "succeeded", attempts: 3 });
    expect(
      (
        await api(o.agent)
          .op("getWebhookEndpoint", { params: { id: ep.id } })
          .expect(200)
      ).body.data.failing_since,
    ).toBeNull();
    // hrms_webhook_delivery_attempts_total (src/platform/metrics.ts): two to be retried, one made
    expect(await attempts("retry")).toBe(before.retry + 2);
    expect(await attempts("succeeded")).toBe(before.succeeded + 1);
    expect((await exposition()).body).toMatch(/^hrms_webhook_delivery_lag_seconds_count \d+$/m);
  });

  it("429 with Retry-After is retried then; 410 disables the endpoint; re-enabling clears it", async () => {
    const o = await signupTenant(t);
    const { endpoint: ep } = await endpoint(o, "/gone");
    await o.agent.post("/api/employees").send(employeeInput()).expect(201);
    answers.push({ status: 429, headers: { "Retry-After": "3600" } });
    await deliver();
    const [d] = await t.query(
      `SELECT status, next_attempt_at > now() + interval '59 minutes' AS later FROM webhook_deliveries WHERE endpoint_id = $1`,
      [ep.id],
    );
    expect(d).toEqual({ status: "pending", later: true });
    await dueNow();
    answers.push({ status: 410 });
    await deliver();
    const gone = (
      await api(o.agent)
        .op("getWebhookEndpoint", { params: { id: ep.id } })
        .expect(200)
    ).body.data;
    expect(gone).toMatchObject({ enabled: false, disabled_reason: "gone" });
    await o.agent.post("/api/employees").send(employeeInput()).expect(201);
    await deliver();
    expect(deliveredTo("/gone")).toHaveLength(2); // nothing more while disabled
    const back = (
      await api(o.agent)
        .op("updateWebhookEndpoint", { params: { id: ep.id }, body: { enabled: true } })
        .expect(200)
    ).body.data;
    expect(back).toMatchObject({ enabled: true, disabled_reason: null, failing_since: null });
    const log = (
      await api(o.agent)
        .op("listActivityLog", { query: { entity_id: ep.id } })
        .expect(200)
    ).body.data;
    expect(log[0]).toMatchObject({ action: "webhook_endpoint.updated", changes: { enabled: { from: false, to: true } } });
  });

  it("disabling an endpoint parks the deliveries already queued for it; enabling it again sends them", async () => {
    const o = await signupTenant(t);
    const { endpoint: ep } = await endpoint(o, "/parked");
    answers.push({ status: 503 });
    await o.agent.post("/api/employees").send(employeeInput()).expect(201);
    await deliver(); // the first attempt fails: the delivery stays queued for a retry
    expect(deliveredTo("/parked")).toHaveLength(1);
    await api(o.agent)
      .op("updateWebhookEndpoint", { params: { id: ep.id }, body: { enabled: false } })
      .expect(200);
    await dueNow();
    await deliver();
    expect(deliveredTo("/parked")).toHaveLength(1); // nothing sent while disabled
    const parked = await t.query(`SELECT status, attempts FROM webhook_deliveries WHERE endpoint_id = $1`, [ep.id]);
    expect(parked).toEqual([{ status: "pending", attempts: 1 }]);
    await api(o.agent)
      .op("updateWebhookEndpoint", { params: { id: ep.id }, body: { enabled: true } })
      .expect(200);
    await dueNow();
    await deliver();
    expect(deliveredTo("/parked")).toHaveLength(2);
    const [sent] = await t.query(`SELECT status FROM webhook_deliveries WHERE endpoint_id = $1`, [ep.id]);
    expect(sent.status).toBe("succeeded");
  });

  it("loopback is refused at connect time unless allowed, whatever the URL said at registration", async () => {
    const o = await signupTenant(t);
    const { endpoint: ep } = await endpoint(o, "/blocked");
    await o.agent.post("/api/employees").send(employeeInput()).expect(201);
    await deliver({ webhookAllowLoopback: false });
    expect(deliveredTo("/blocked")).toHaveLength(0);
    const log = (
      await api(o.agent)
        .op("listWebhookAttempts", { params: { id: ep.id } })
        .expect(200)
    ).body.data;
    expect(log[0]).toMatchObject({ status_code: null, error: expect.stringContaining("loopback") });
    // what a refused name resolved to is not said (the log is an admin's view of internal addresses)
    for (const address of ["10.1.2.3", "127.0.0.1", "fd00::7", "169.254.169.254"]) {
      const resolve = ((_h: string, _o: unknown, cb: (e: null, a: { address: string; family: number }[]) => void) =>
        cb(null, [{ address, family: address.includes(":") ? 6 : 4 }])) as unknown as Parameters<typeof publicLookup>[1];
      const err = await new Promise<Error | null>((done) => publicLookup(false, resolve)("hooks.internal.example", {}, (e) => done(e)));
      expect(err?.message).toBe("refused: hooks.internal.example resolves to a non-public address");
    }
    // a name (not an address) that resolves to a non-public address is refused by the lookup itself
    const host = os.hostname();
    const resolved = await dns.lookup(host).catch(() => null);
    if (resolved && refusedAddress(resolved.address, false)) {
      await t.query(`UPDATE webhook_endpoints SET url = $2 WHERE id = $1`, [ep.id, `http://${host}:1/x`]);
      await dueNow();
      await deliver({ webhookAllowLoopback: false });
      const again = (
        await api(o.agent)
          .op("listWebhookAttempts", { params: { id: ep.id } })
          .expect(200)
      ).body.data;
      expect(again[0].error).toBe(`refused: ${host} resolves to a non-public address`);
    }
  });
});

describe("replayWebhookEvents, testWebhookEndpoint, rotateWebhookSecret, deleteWebhookEndpoint", () => {
  it("replay resends the same webhook-id, of one event or a time range; a ping reaches one endpoint", async () => {
    const o = await signupTenant(t);
    const { endpoint: ep, secret } = await endpoint(o, "/replay");
    const { endpoint: quiet } = await endpoint(o, "/quiet", { event_types: ["leave_request.approved"] });
    const emp = (await o.agent.post("/api/employees").send(employeeInput()).expect(201)).body.data;
    await api(o.agent)
      .op("deleteEmployee", { params: { employeeId: emp.id } })
      .expect(200);
    await deliver();
    const first = deliveredTo("/replay").sort((x, y) => JSON.parse(x.body).type.localeCompare(JSON.parse(y.body).type));
    expect(first.map((r) => JSON.parse(r.body).type)).toEqual(["employee.created", "employee.deleted"]);
    const eventId = first[0].headers["webhook-id"];
    const one = (
      await api(o.agent)
        .op("replayWebhookEvents", { params: { id: ep.id }, body: { event_id: eventId } })
        .expect(202)
    ).body.data;
    expect(one).toEqual({ queued: 1 });
    await deliver();
    const replayed = deliveredTo("/replay")[2];
    expect(replayed.headers["webhook-id"]).toBe(eventId);
    expect(new Webhook(secret).verify(replayed.body, replayed.headers)).toMatchObject({ type: "employee.created" });
    const range = (
      await api(o.agent)
        .op("replayWebhookEvents", { params: { id: quiet.id }, body: { from: "2000-01-01T00:00:00Z", to: "2100-01-01T00:00:00Z" } })
        .expect(202)
    ).body.data;
    expect(range).toEqual({ queued: 0 }); // not subscribed to those types
    const all = (
      await api(o.agent)
        .op("replayWebhookEvents", { params: { id: ep.id }, body: { from: "2000-01-01T00:00:00Z", to: "2100-01-01T00:00:00Z" } })
        .expect(202)
    ).body.data;
    expect(all).toEqual({ queued: 2 });
    expectError(await api(o.agent).op("replayWebhookEvents", { params: { id: ep.id }, body: {} }), 400, "validation_failed");
    expectError(await api(o.agent).op("replayWebhookEvents", { params: { id: ep.id }, body: { event_id: emp.id } }), 404, "not_found");

    await api(o.agent)
      .op("testWebhookEndpoint", { params: { id: quiet.id } })
      .expect(202);
    await deliver();
    const ping = deliveredTo("/quiet");
    expect(ping.map((r) => JSON.parse(r.body).type)).toEqual(["webhook.ping"]);
    expect(deliveredTo("/replay").filter((r) => JSON.parse(r.body).type === "webhook.ping")).toHaveLength(0);
  });

  it("after a rotation both secrets verify for a day; deleting stops deliveries", async () => {
    const o = await signupTenant(t);
    const { endpoint: ep, secret: old } = await endpoint(o, "/rotate");
    const rotated = (
      await api(o.agent)
        .op("rotateWebhookSecret", { params: { id: ep.id } })
        .expect(200)
    ).body.data;
    expect(rotated.endpoint.previous_secret_expires_at).not.toBeNull();
    await o.agent.post("/api/employees").send(employeeInput()).expect(201);
    await deliver();
    const [r] = deliveredTo("/rotate");
    expect(r.headers["webhook-signature"].split(" ")).toHaveLength(2);
    new Webhook(rotated.secret).verify(r.body, r.headers);
    new Webhook(old).verify(r.body, r.headers);
    await api(o.agent)
      .op("deleteWebhookEndpoint", { params: { id: ep.id } })
      .expect(200);
    expectError(await api(o.agent).op("getWebhookEndpoint", { params: { id: ep.id } }), 404, "not_found");
    await o.agent.post("/api/employees").send(employeeInput()).expect(201);
    await deliver();
    expect(deliveredTo("/rotate")).toHaveLength(1);
  });
});

describe("listEvents: the event feed", () => {
  it("the same envelopes in one order per company, deletions included, read after a cursor", async () => {
    const o = await signupTenant(t);
    const other = await signupTenant(t);
    const emp = (await o.agent.post("/api/employees").send(employeeInput()).expect(201)).body.data;
    await other.agent.post("/api/employees").send(employeeInput()).expect(201);
    const first = (await api(o.agent).op("listEvents").expect(200)).body;
    expect(first.data.map((e: { type: string }) => e.type)).toEqual(["employee.created"]);
    expect(first.data[0]).toMatchObject({ data: { id: emp.id, entity_type: "employee" } });
    await api(o.agent)
      .op("updateEmployee", { params: { employeeId: emp.id }, body: { designation: "Head" } })
      .expect(200);
    await api(o.agent)
      .op("deleteEmployee", { params: { employeeId: emp.id } })
      .expect(200);
    const next = (
      await api(o.agent)
        .op("listEvents", { query: { after: first.next_cursor! } })
        .expect(200)
    ).body;
    expect(next.data.map((e: { type: string }) => e.type)).toEqual(["employee.updated", "employee.deleted"]);
    expect(Number(next.data[1].cursor)).toBeGreaterThan(Number(next.data[0].cursor));
    const none = (
      await api(o.agent)
        .op("listEvents", { query: { after: next.next_cursor! } })
        .expect(200)
    ).body;
    expect(none.data).toEqual([]);
    expect(none.next_cursor).toBe(next.next_cursor);
    const paged = (
      await api(o.agent)
        .op("listEvents", { query: { limit: 1 } })
        .expect(200)
    ).body;
    expect(paged.data).toHaveLength(1);
    // a credential with events:read reads it too
    const c = (
      await api(o.agent)
        .op("createApiCredential", { body: { name: "Feed", scopes: ["events:read"] } })
        .expect(201)
    ).body.data;
    const viaCredential = (
      await api(t.request())
        .op("listEvents", { headers: { Authorization: `Bearer ${c.secret}` } })
        .expect(200)
    ).body;
    expect(viaCredential.data).toHaveLength(3);
  });
});

describe("listEvents, createWebhookEndpoint: the changes an API credential may read", () => {
  it("events:read alone reads the events of an area without their changes; with the area's read scope, with them", async () => {
    const o = await signupTenant(t);
    const emp = (
      await o.agent
        .post("/api/employees")
        .send(employeeInput({ phone: "+91 98765 43210" }))
        .expect(201)
    ).body.data;
    const credential = async (scopes: string[]) =>
      (
        await api(o.agent)
          .op("createApiCredential", { body: { name: scopes.join(" "), scopes, role: "admin" } })
          .expect(201)
      ).body.data.secret as string;
    const feedOnly = await credential(["events:read"]);
    expectError(
      await api(t.request()).op("getEmployee", { params: { employeeId: emp.id }, headers: { Authorization: `Bearer ${feedOnly}` } }),
      403,
      "forbidden",
    );
    const bare = (
      await api(t.request())
        .op("listEvents", { headers: { Authorization: `Bearer ${feedOnly}` } })
        .expect(200)
    ).body.data;
    expect(bare).toEqual([
      expect.objectContaining({ type: "employee.created", data: { id: emp.id, entity_type: "employee", changes: null } }),
    ]);
    expect(JSON.stringify(bare)).not.toContain("98765");
    const reader = await credential(["events:read", "employees:read"]);
    const full = (
      await api(t.request())
        .op("listEvents", { headers: { Authorization: `Bearer ${reader}` } })
        .expect(200)
    ).body.data;
    expect(JSON.stringify(full[0].data.changes)).toContain("98765");
    // webhooks:manage cannot subscribe to what it could not read
    const manager = await credential(["webhooks:manage"]);
    const url = "https://hooks.example.com/sync";
    const refused = await api(t.request()).op("createWebhookEndpoint", {
      body: { url, event_types: ["employee.created"] },
      headers: { Authorization: `Bearer ${manager}` },
    });
    expect(expectError(refused, 403, "forbidden").error).toContain("lacks the scope employees:read");
    expectError(
      await api(t.request()).op("createWebhookEndpoint", { body: { url }, headers: { Authorization: `Bearer ${manager}` } }),
      403,
      "forbidden",
    );
    const both = await credential(["webhooks:manage", "employees:read"]);
    await api(t.request())
      .op("createWebhookEndpoint", {
        body: { url, event_types: ["employee.created", "employee.updated"] },
        headers: { Authorization: `Bearer ${both}` },
      })
      .expect(201);
  });
});
