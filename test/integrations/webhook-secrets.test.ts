// Webhook signing secrets encrypted at rest: with WEBHOOK_SECRET_KEY the stored secret is
// AES-256-GCM ciphertext; deliveries are still signed with the secret (verified with the reference
// `standardwebhooks` package), during a rotation with both; without the key nothing is sent and the
// attempt says why.
import { randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { DELIVER_JOB } from "../../src/platform/events/events.ts";
import { openSecret, sealSecret } from "../../src/platform/events/secret-box.ts";
import { jobs } from "../../src/platform/jobs/queue.ts";
import { signupTenant, useTestApp } from "../support/app.ts";
import { api } from "../support/api.ts";
import { readBody, useWebhookReceiver } from "./fixtures.ts";

const KEY = randomBytes(32).toString("base64");
const t = useTestApp({ config: { webhookAllowLoopback: true, webhookSecretKey: KEY } });

const received: { headers: Record<string, string>; body: string }[] = [];
const receiver = useWebhookReceiver(async (req, res) => {
  received.push({ headers: req.headers as Record<string, string>, body: await readBody(req) });
  res.writeHead(204).end();
});

describe("createWebhookEndpoint, rotateWebhookSecret: secrets encrypted at rest", () => {
  it("stores ciphertext, signs with the secret, and with both during a rotation", async () => {
    const o = await signupTenant(t);
    const made = (
      await api(o.agent)
        .op("createWebhookEndpoint", { body: { url: `${receiver.base}/s` } })
        .expect(201)
    ).body.data;
    const [row] = await t.query<{ secret: string }>("SELECT secret FROM webhook_endpoints WHERE id = $1", [made.endpoint.id]);
    expect(row.secret).toMatch(/^enc:v1:/);
    expect(row.secret).not.toContain(made.secret.slice(6));
    expect(openSecret(row.secret, KEY)).toBe(made.secret);

    await api(o.agent)
      .op("testWebhookEndpoint", { params: { id: made.endpoint.id } })
      .expect(202);
    await jobs.runNow(DELIVER_JOB, t.configWith({}));
    const first = received.at(-1);
    expect(first).toBeDefined();
    expect(() => new Webhook(made.secret).verify(first!.body, first!.headers)).not.toThrow();

    const rotated = (
      await api(o.agent)
        .op("rotateWebhookSecret", { params: { id: made.endpoint.id } })
        .expect(200)
    ).body.data;
    const [after] = await t.query("SELECT secret, previous_secret FROM webhook_endpoints WHERE id = $1", [made.endpoint.id]);
    expect(after.secret).toMatch(/^enc:v1:/);
    expect(after.previous_secret).toBe(row.secret);
    await api(o.agent)
      .op("testWebhookEndpoint", { params: { id: made.endpoint.id } })
      .expect(202);
    await jobs.runNow(DELIVER_JOB, t.configWith({}));
    const second = received.at(-1)!;
    expect(second.headers["webhook-signature"].split(" ")).toHaveLength(2);
    for (const s of [rotated.secret, made.secret]) expect(() => new Webhook(s).verify(second.body, second.headers)).not.toThrow();
  });

  it("without the key (or with another) nothing is sent; the attempt says why", async () => {
    const o = await signupTenant(t);
    const made = (
      await api(o.agent)
        .op("createWebhookEndpoint", { body: { url: `${receiver.base}/nokey` } })
        .expect(201)
    ).body.data;
    await api(o.agent)
      .op("testWebhookEndpoint", { params: { id: made.endpoint.id } })
      .expect(202);
    const before = received.length;
    await jobs.runNow(DELIVER_JOB, t.configWith({ webhookSecretKey: undefined }));
    expect(received.length).toBe(before);
    const attempts = (
      await api(o.agent)
        .op("listWebhookAttempts", { params: { id: made.endpoint.id } })
        .expect(200)
    ).body.data;
    expect(attempts[0].error).toContain("WEBHOOK_SECRET_KEY");
    expect(() => openSecret(sealSecret("whsec_x", KEY), randomBytes(32).toString("base64"))).toThrow();
    // a secret written before the key was set is read as written
    expect(openSecret("whsec_abc", KEY)).toBe("whsec_abc");
  });
});
