// Fault: the server process is killed (SIGKILL, no shutdown) in the middle of a multi-row write.
// The real server (the production build, as `npm start` runs it) runs as a child process against this file's database.
//   - deterministic: a signup's confirmation (user + tenant + membership + audit in one
//     transaction, the pending signup consumed) is held inside its transaction by a table lock the
//     test takes, the process is killed right there; after a restart none of the rows exist and
//     the same confirmation succeeds completely;
//   - random: a burst of concurrent signup confirmations and invitations is cut by SIGKILL at a
//     random moment; after a restart every write is all-or-nothing.
// (Signup itself stores one row and answers 202; the confirmation token is set by the test,
// test/support/signup.ts.)
import type { ChildProcess } from "node:child_process";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { uniqueEmail, useTestApp } from "../support/app.ts";
import { startServerProcess } from "../support/server-process.ts";
import { serverArgs } from "../support/server-entry.ts";
import { signupToken } from "../support/signup.ts";
import { waitFor } from "../support/eventually.ts";

const t = useTestApp();
const root = path.resolve(import.meta.dirname, "../..");
let child: { proc: ChildProcess; base: string } | undefined;

/** Starts the real server on this file's database (on a free port it takes itself) and waits until it is healthy. */
async function startServer(): Promise<{ proc: ChildProcess; base: string }> {
  // node itself, one process: SIGKILL hits the server
  const { proc, base } = await startServerProcess(serverArgs(), {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: t.url,
      PUBLIC_URL: "http://127.0.0.1",
      RUN_WORKER: "false",
      MIGRATE_ON_START: "false",
      LOG_LEVEL: "silent",
      NODE_ENV: "test",
    },
  });
  return { proc, base };
}

function kill(c: { proc: ChildProcess }): Promise<void> {
  return new Promise((resolve) => {
    if (c.proc.exitCode !== null || c.proc.signalCode) return resolve();
    c.proc.once("exit", () => resolve());
    c.proc.kill("SIGKILL");
  });
}

const post = (base: string, p: string, body: unknown, cookie?: string) =>
  fetch(`${base}${p}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(cookie ? { cookie } : {}) },
    body: JSON.stringify(body),
  });

/** Starts a signup (202) and returns the token that confirms it. */
async function startSignup(base: string, body: { name: string; email: string; password: string; company_name: string }): Promise<string> {
  const res = await post(base, "/api/auth/signup", body);
  if (res.status !== 202) throw new Error(`signup answered ${res.status}`);
  return signupToken(t.query, body.email);
}

/** Every signup is complete (user, owner membership, tenant, audit entry) or absent. */
async function signupState(email: string): Promise<"complete" | "absent" | string> {
  const [row] = await t.query(
    `SELECT (SELECT count(*)::int FROM users WHERE email = $1) AS users,
            (SELECT count(*)::int FROM memberships m JOIN users u ON u.id = ` +
      `m.user_id WHERE u.email = $1 AND m.role = 'owner') AS memberships,
            (SELECT count(*)::int FROM tenants tt JOIN memberships m ON m.tenant_id ` +
      `= tt.id JOIN users u ON u.id = m.user_id WHERE u.email = $1) AS tenants,
            (SELECT count(*)::int FROM audit_logs a WHERE a.actor_email = $1 AND a.action = 'tenant.created') AS audits`,
    [email],
  );
  if (row.users === 1 && row.memberships === 1 && row.tenants === 1 && row.audits === 1) return "complete";
  if (row.users === 0 && row.memberships === 0 && row.tenants === 0 && row.audits === 0) return "absent";
  return `half-written: ${JSON.stringify(row)}`;
}

beforeAll(async () => {
  child = await startServer();
});
afterAll(async () => {
  if (child) await kill(child);
});

describe("server killed during a multi-row write", () => {
  it("a signup confirmation killed inside its transaction leaves nothing, and succeeds after the restart", async () => {
    const email = uniqueEmail("crash.signup");
    const company = `Crash ${Date.now()}`;
    const token = await startSignup(child!.base, { name: "Crash Test", email, password: "crash-password-1", company_name: company });
    const locker = new pg.Client({ connectionString: t.url });
    await locker.connect();
    try {
      await locker.query("BEGIN");
      await locker.query("LOCK TABLE tenants IN SHARE ROW EXCLUSIVE MODE");
      const pending = post(child!.base, "/api/auth/signup/confirm", { token, password: "crash-password-1" }).catch(() => null);
      // the user row is written; the transaction now waits for the tenants lock
      await waitFor("the signup transaction to block on tenants", async () => {
        const rows = await t.query(
          `SELECT 1 FROM pg_stat_activity WHERE datname = $1 AND wait_event_type = 'Lock' AND query ILIKE '%INSERT INTO%tenants%'`,
          [t.dbName],
        );
        return rows.length > 0;
      });
      await kill(child!);
      expect(await pending).toBeNull();
      await locker.query("COMMIT");
    } finally {
      await locker.end();
    }
    // the orphaned backend finds its client gone and rolls back
    await waitFor(
      "the killed server's transaction to end",
      async () =>
        (
          await t.query(
            `SELECT 1 FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid() ` +
              `AND query ILIKE '%INSERT INTO%tenants%' AND state <> 'idle'`,
            [t.dbName],
          )
        ).length === 0,
    );
    expect(await signupState(email)).toBe("absent");

    child = await startServer();
    const res = await post(child.base, "/api/auth/signup/confirm", { token, password: "crash-password-1" });
    expect(res.status).toBe(201);
    expect(await signupState(email)).toBe("complete");
  });

  it("a burst of signup confirmations and invitations cut by SIGKILL at a random moment is all-or-nothing", async () => {
    const ownerEmail = uniqueEmail("crash.owner");
    const ownerToken = await startSignup(child!.base, {
      name: "Burst Owner",
      email: ownerEmail,
      password: "crash-password-1",
      company_name: "Burst Co",
    });
    const signup = await post(child!.base, "/api/auth/signup/confirm", { token: ownerToken, password: "crash-password-1" });
    expect(signup.status).toBe(201);
    const cookie = signup.headers.getSetCookie()[0].split(";")[0];
    const emails = Array.from({ length: 24 }, () => uniqueEmail("crash.burst"));
    const invites = Array.from({ length: 24 }, () => uniqueEmail("crash.invitee"));
    const tokens: string[] = [];
    for (const email of emails)
      tokens.push(await startSignup(child!.base, { name: "Burst", email, password: "crash-password-1", company_name: "Burst" }));
    const inflight = [
      ...tokens.map((token) =>
        post(child!.base, "/api/auth/signup/confirm", { token, password: "crash-password-1" }).then(
          (r) => r.status,
          () => 0,
        ),
      ),
      ...invites.map((email) =>
        post(child!.base, "/api/configuration/members", { email, role: "employee" }, cookie).then(
          (r) => r.status,
          () => 0,
        ),
      ),
    ];
    // kill mid-burst: once the first writes have committed, after a further random moment
    await waitFor(
      "the first writes of the burst",
      async () =>
        (
          await t.query(
            `SELECT 1 FROM users WHERE email LIKE 'crash.burst%' UNION ALL SELECT 1 FROM invitations WHERE email LIKE 'crash.invitee%'`,
          )
        ).length > 0,
    );
    await new Promise((r) => setTimeout(r, Math.random() * 300));
    await kill(child!);
    const statuses = await Promise.all(inflight);
    await waitFor(
      "the killed server's transactions to end",
      async () =>
        (
          await t.query(
            `SELECT 1 FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid() AND state IN ('active', 'idle in transaction')`,
            [t.dbName],
          )
        ).length === 0,
    );
    child = await startServer();

    const states = await Promise.all(emails.map(signupState));
    expect(states.filter((s) => s !== "complete" && s !== "absent")).toEqual([]);
    // a 201 the client saw is always complete
    for (const i of emails.keys()) if (statuses[i] === 201) expect(states[i]).toBe("complete");
    const inv = await t.query<{ email: string; invitation: number; mail: number; audit: number }>(
      `SELECT e AS email,
              (SELECT count(*)::int FROM invitations i WHERE i.email = e) AS invitation,
              (SELECT count(*)::int FROM email_outbox o WHERE o.to_address = e) AS mail,
              (SELECT count(*)::int FROM audit_logs a JOIN invitations i ON a.entity_id ` +
        `= i.id WHERE i.email = e AND a.action = 'member.invited') AS audit
         FROM unnest($1::text[]) AS e`,
      [invites],
    );
    expect(
      inv.filter((r) => !((r.invitation === 1 && r.mail === 1 && r.audit === 1) || (r.invitation === 0 && r.mail === 0 && r.audit === 0))),
    ).toEqual([]);
    const done = states.filter((s) => s === "complete").length + inv.filter((r) => r.invitation).length;
    console.log(
      `[faults] kill -9 during ${emails.length} signup confirmations ` +
        `+ ${invites.length} invitations: ${done} complete, ${emails.length + invites.length - done} absent, 0 half-written`,
    );
    // and the restarted server works
    const again = await post(child.base, "/api/auth/sign-in", { email: "nobody@example.test", password: "whatever-password" });
    expect(again.status).toBe(401);
  });
});
