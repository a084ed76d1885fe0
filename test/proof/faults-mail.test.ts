// Fault: the SMTP server is down (connection refused) or refuses mail (451) when a mail is due.
// The mail is never lost: its outbox row stays pending with the error and a backoff, the worker's
// sweep (scheduled every minute) retries it, and once the server is back it is delivered exactly
// once.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Config } from "../../src/config.ts";
import { registerAllJobs } from "../../src/modules/jobs.ts";
import { JOB_SCHEMA, jobs } from "../../src/platform/jobs/queue.ts";
import { deliverDueEmails } from "../../src/platform/mail/deliver.ts";
import { signupTenant, uniqueEmail, useTestApp, type TenantSession } from "../support/app.ts";
import { startMailSink, type MailSink } from "../support/mail.ts";
import { api } from "../support/api.ts";

const t = useTestApp();
let sink: MailSink;
let port: number;
let owner: TenantSession;
/** The sink's address (the same after it restarts on its port) and the worker's configuration with it. */
let smtpUrl: string;
let withSink: Config;

beforeAll(async () => {
  sink = await startMailSink();
  port = Number(new URL(sink.url).port);
  smtpUrl = sink.url;
  withSink = t.configWith({ smtpUrl });
  owner = await signupTenant(t, { company: "Mail Outage Co" });
});
afterAll(async () => {
  await jobs.stop();
  await sink.close().catch(() => {});
});

async function outboxRow(to: string) {
  const [row] = await t.query<{ status: string; attempts: number; last_error: string | null; next_attempt_at: Date; sent_at: Date | null }>(
    "SELECT status, attempts, last_error, next_attempt_at, sent_at FROM email_outbox WHERE to_address = $1",
    [to],
  );
  return row;
}

async function waitUntilDue(to: string) {
  const row = await outboxRow(to);
  const wait = new Date(row.next_attempt_at).getTime() - Date.now();
  if (wait > 0) await new Promise((r) => setTimeout(r, wait + 50));
}

describe("mail delivery while the SMTP server is down", () => {
  it("keeps the mail (connection refused), retries after the backoff, delivers it once when the server is back", async () => {
    await sink.close(); // SMTP down: nothing listens on the port
    const to = uniqueEmail("mail.down");
    await api(owner.agent)
      .op("inviteMember", { body: { email: to, role: "employee" } })
      .expect(201);
    expect(await outboxRow(to)).toMatchObject({ status: "pending", attempts: 0 });

    expect(await deliverDueEmails(smtpUrl)).toBe(0);
    const failed = await outboxRow(to);
    expect(failed).toMatchObject({ status: "pending", attempts: 1, sent_at: null });
    expect(failed.last_error).toMatch(/ECONNREFUSED|connect/i);
    expect(new Date(failed.next_attempt_at).getTime()).toBeGreaterThan(Date.now());

    sink = await startMailSink(port); // back, on the same address
    expect(await deliverDueEmails(smtpUrl), "not retried before its backoff").toBe(0);
    await waitUntilDue(to);
    expect(await deliverDueEmails(smtpUrl)).toBe(1);
    expect(await outboxRow(to)).toMatchObject({ status: "sent", attempts: 2, last_error: null });
    expect(await deliverDueEmails(smtpUrl), "a sweep after delivery sends nothing again").toBe(0);
    expect(sink.messages.filter((m) => m.to.includes(to))).toHaveLength(1);
    expect(sink.messages.find((m) => m.to.includes(to))!.text).toMatch(/Invitation token: /);
  });

  it("keeps the mail when the server refuses it (451) and delivers it once it accepts", async () => {
    sink.refuse();
    const to = uniqueEmail("mail.refused");
    await api(owner.agent)
      .op("inviteMember", { body: { email: to, role: "hr" } })
      .expect(201);
    expect(await deliverDueEmails(smtpUrl)).toBe(0);
    expect(await outboxRow(to)).toMatchObject({ status: "pending", attempts: 1 });
    expect((await outboxRow(to)).last_error).toMatch(/451|mailbox unavailable/);
    sink.accept();
    await waitUntilDue(to);
    expect(await deliverDueEmails(smtpUrl)).toBe(1);
    expect(sink.messages.filter((m) => m.to.includes(to))).toHaveLength(1);
  });

  it("the worker that retries it is scheduled: mail.deliver every minute in the shared job queue", async () => {
    registerAllJobs();
    await jobs.start(t.url, withSink);
    const rows = await t.query(`SELECT name, cron FROM ${JOB_SCHEMA}.schedule WHERE name = 'mail.deliver'`);
    expect(rows).toEqual([{ name: "mail.deliver", cron: "* * * * *" }]);
    // and a kick delivers what is due without waiting for the sweep
    sink.refuse();
    const to = uniqueEmail("mail.kick");
    await api(owner.agent)
      .op("inviteMember", { body: { email: to, role: "manager" } })
      .expect(201);
    for (let i = 0; i < 100 && (await outboxRow(to)).attempts === 0; i++) await new Promise((r) => setTimeout(r, 100));
    expect(await outboxRow(to)).toMatchObject({ status: "pending", attempts: 1 });
    sink.accept();
    await waitUntilDue(to);
    await jobs.runNow("mail.deliver", withSink);
    expect(await outboxRow(to)).toMatchObject({ status: "sent" });
    expect(sink.messages.filter((m) => m.to.includes(to))).toHaveLength(1);
  });
});
