// Webhook deliveries claimed in batches: FOR UPDATE SKIP LOCKED with a lease, sent
// concurrently up to WEBHOOK_CONCURRENCY per process and WEBHOOK_CONCURRENCY_PER_ENDPOINT per
// endpoint; two workers running at once send each delivery once.
import http from "node:http";
import { describe, expect, it } from "vitest";
import { DELIVER_JOB } from "../../src/platform/events/events.ts";
import { jobs } from "../../src/platform/jobs/queue.ts";
import { signupTenant, type TenantSession, useTestApp } from "../support/app.ts";
import { api } from "../support/api.ts";
import { useWebhookReceiver } from "./fixtures.ts";

const t = useTestApp({ config: { webhookAllowLoopback: true } });

/** Per path: requests in flight now, the most at once, and the webhook-ids received. */
const seen = new Map<string, { now: number; most: number; ids: string[] }>();
let overall = { now: 0, most: 0 };
const receiver = useWebhookReceiver((req, res) => {
  const s = seen.get(req.url ?? "") ?? { now: 0, most: 0, ids: [] };
  seen.set(req.url ?? "", s);
  s.now++;
  s.most = Math.max(s.most, s.now);
  overall.now++;
  overall.most = Math.max(overall.most, overall.now);
  req.resume();
  req.on("end", () => {
    // slow enough for the sends of a batch to overlap
    setTimeout(() => {
      s.ids.push(String(req.headers["webhook-id"]));
      s.now--;
      overall.now--;
      res.writeHead(200).end("ok");
    }, 40);
  });
});

async function endpointWithPings(o: TenantSession, path: string, pings: number) {
  const ep = (
    await api(o.agent)
      .op("createWebhookEndpoint", { body: { url: `${receiver.base}${path}` } })
      .expect(201)
  ).body.data.endpoint;
  for (let i = 0; i < pings; i++)
    await api(o.agent)
      .op("testWebhookEndpoint", { params: { id: ep.id } })
      .expect(202);
  return ep.id as string;
}

describe("createWebhookEndpoint, testWebhookEndpoint: deliveries claimed in batches", () => {
  it("bounded per endpoint and per process; two workers at once send every delivery once", async () => {
    const o = await signupTenant(t);
    await endpointWithPings(o, "/a", 24);
    await endpointWithPings(o, "/b", 24);
    overall = { now: 0, most: 0 };
    const cfg = t.configWith({ webhookAllowLoopback: true, webhookConcurrency: 5, webhookConcurrencyPerEndpoint: 2 });
    // two processes' runs of the job at the same time (each with its own bounds)
    await Promise.all([jobs.runNow(DELIVER_JOB, cfg), jobs.runNow(DELIVER_JOB, cfg)]);
    for (const path of ["/a", "/b"]) {
      const s = seen.get(path);
      expect(s?.ids).toHaveLength(24);
      expect(new Set(s?.ids).size).toBe(24); // none twice
      expect(s?.most).toBeGreaterThan(1); // concurrently
      expect(s?.most).toBeLessThanOrEqual(4); // 2 per endpoint in each of the two runs
    }
    expect(overall.most).toBeLessThanOrEqual(10);
    const [{ pending, attempts }] = await t.query(
      `SELECT count(*) FILTER (WHERE status <> 'succeeded')::int AS pending, max(attempts)::int AS attempts FROM webhook_deliveries`,
    );
    expect({ pending, attempts }).toEqual({ pending: 0, attempts: 1 });
  });
});

describe("testWebhookEndpoint: a slow endpoint does not hold up the others", () => {
  it("deliveries to a fast endpoint go on while a slow one's wait for their turn", async () => {
    const o = await signupTenant(t);
    const order: string[] = [];
    const slow = http.createServer((req, res) => {
      order.push("slow");
      req.resume();
      req.on("end", () => setTimeout(() => res.writeHead(200).end("ok"), 2500));
    });
    await new Promise<void>((resolve) => slow.listen(0, "127.0.0.1", resolve));
    try {
      const slowUrl = `http://127.0.0.1:${(slow.address() as { port: number }).port}/slow`;
      const ep = (
        await api(o.agent)
          .op("createWebhookEndpoint", { body: { url: slowUrl } })
          .expect(201)
      ).body.data.endpoint;
      for (let i = 0; i < 4; i++)
        await api(o.agent)
          .op("testWebhookEndpoint", { params: { id: ep.id } })
          .expect(202);
      await endpointWithPings(o, "/fast", 12);
      const fast = seen.get("/fast") ?? { now: 0, most: 0, ids: [] };
      seen.set("/fast", fast);
      const before = fast.ids.length;
      // the order of arrivals: each fast one as it is answered
      const watch = setInterval(() => {
        while (order.filter((x) => x === "fast").length < fast.ids.length - before) order.push("fast");
      }, 5);
      const cfg = t.configWith({ webhookAllowLoopback: true, webhookConcurrency: 4, webhookConcurrencyPerEndpoint: 2 });
      await jobs.runNow(DELIVER_JOB, cfg);
      clearInterval(watch);
      while (order.filter((x) => x === "fast").length < fast.ids.length - before) order.push("fast");
      expect(order.filter((x) => x === "slow")).toHaveLength(4);
      expect(fast.ids.length - before).toBe(12);
      // every fast delivery was answered before the slow endpoint's third request (2 at a time there)
      expect(order.lastIndexOf("fast")).toBeLessThan(order.indexOf("slow", order.indexOf("slow", order.indexOf("slow") + 1) + 1));
    } finally {
      slow.closeAllConnections();
      await new Promise((resolve) => slow.close(resolve));
    }
  });
});
