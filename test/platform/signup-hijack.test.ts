// Pre-account hijack: anyone can sign up with anyone's address and a password of
// their choosing, and the confirmation mail of that signup looks exactly like the owner's own. So
// the password is chosen at the confirmation by whoever holds the mailed token - the person at the
// mailbox - and a stranger's signups can delay the owner's confirmation mail (the address's budget
// of 3 mails in 15 minutes) but not suppress it. Jobs run here with jobs.runNow (no worker); mail
// stays in the outbox.
import { describe, expect, it } from "vitest";
import { registerAllJobs } from "../../src/modules/jobs.ts";
import { jobs } from "../../src/platform/jobs/queue.ts";
import { appWith, expectDetails, expectError, uniqueEmail, useTestApp } from "../support/app.ts";
import { api } from "../support/api.ts";

const t = useTestApp();
registerAllJobs();

const ATTACKER_PASSWORD = "attacker-chosen-lantern-77";
const OWNER_PASSWORD = "owner-chosen-granite-31";

const confirmations = async (email: string) =>
  (
    await t.query<{ text_body: string }>(
      "SELECT text_body FROM email_outbox WHERE to_address = $1 AND subject = 'Confirm your HRMS account' ORDER BY created_at",
      [email],
    )
  ).map((m) => /Confirmation token: ([A-Za-z0-9_-]+)/.exec(m.text_body)![1]);

describe("signup, confirmSignup: a stranger's signup cannot decide the account", () => {
  it("creates the account with the password chosen at the confirmation, never the signup's", async () => {
    const victim = uniqueEmail("victim");
    const attacker = appWith(t, { trustProxy: 1 });
    await attacker
      .as(t.request())
      .post("/api/auth/signup")
      .set("X-Forwarded-For", "198.51.100.66")
      .send({ name: "Not The Owner", email: victim, password: ATTACKER_PASSWORD, company_name: "Attacker Co" })
      .expect(202);
    await jobs.runNow("auth.signup-requests");
    const [token] = await confirmations(victim);
    expect(token).toBeDefined();

    // the person at the mailbox opens the (stranger's) mail: the password is theirs to choose
    const missing = expectDetails(await t.request().post("/api/auth/signup/confirm").send({ token }), 400, "validation_failed");
    expect(missing.details.map((d: { path: string }) => d.path)).toContain("body.password");
    const weak = expectError(
      await api(t.request()).op("confirmSignup", { body: { token, password: "password1" } }),
      400,
      "validation_failed",
    );
    expect(weak.details).toEqual([{ path: "body.password", message: expect.stringMatching(/choose a longer/) }]);
    expect(await t.query("SELECT 1 FROM users WHERE email = $1", [victim])).toEqual([]);

    const owner = t.request();
    const created = await api(owner)
      .op("confirmSignup", { body: { token, password: OWNER_PASSWORD, name: "Vidya Owner", company_name: "Vidya Traders" } })
      .expect(201);
    expect(created.body.data.user).toMatchObject({ email: victim, name: "Vidya Owner" });
    const session = await api(owner).op("getSession").expect(200);
    expect(session.body.data.tenants).toEqual([{ id: created.body.data.active_tenant_id, name: "Vidya Traders", role: "owner" }]);

    // the stranger's password opens nothing; the owner's does
    expectError(await api(t.request()).op("signIn", { body: { email: victim, password: ATTACKER_PASSWORD } }), 401, "unauthenticated");
    await api(t.request())
      .op("signIn", { body: { email: victim, password: OWNER_PASSWORD } })
      .expect(200);
  });

  it("keeps the signup's name and company when the confirmation gives none", async () => {
    const email = uniqueEmail("plain");
    await api(t.request())
      .op("signup", { body: { name: "Plain Person", email, company_name: "Plain Co" } })
      .expect(202);
    await jobs.runNow("auth.signup-requests");
    const [token] = await confirmations(email);
    const agent = t.request();
    const created = await api(agent)
      .op("confirmSignup", { body: { token, password: OWNER_PASSWORD } })
      .expect(201);
    expect(created.body.data.user).toMatchObject({ email, name: "Plain Person" });
    const session = await api(agent).op("getSession").expect(200);
    expect(session.body.data.tenants[0].name).toBe("Plain Co");
  });
});

describe("signup: others' signups cannot suppress the owner's confirmation mail", () => {
  it("past the address's budget the newest signup waits for the window's end and is then mailed", async () => {
    const victim = uniqueEmail("budget");
    const attacker = appWith(t, { trustProxy: 1 });
    const strangerSignup = () =>
      attacker
        .as(t.request())
        .post("/api/auth/signup")
        .set("X-Forwarded-For", "198.51.100.67")
        .send({ name: "Stranger", email: victim, password: ATTACKER_PASSWORD })
        .expect(202);
    for (let i = 0; i < 3; i++) await strangerSignup();
    await jobs.runNow("auth.signup-requests");
    expect(await confirmations(victim)).toHaveLength(3);

    // the owner signs up: the budget is spent, so the signup waits (it is not dropped)
    await api(t.request())
      .op("signup", { body: { name: "Real Owner", email: victim } })
      .expect(202);
    await jobs.runNow("auth.signup-requests");
    expect(await confirmations(victim)).toHaveLength(3);
    // more of the stranger's: still one waiting, the newest
    await strangerSignup();
    await strangerSignup();
    await jobs.runNow("auth.signup-requests");
    expect(await t.query("SELECT 1 FROM signup_requests WHERE email = $1 AND mailed_at IS NULL", [victim])).toHaveLength(1);

    // the window ends (its end moved back by the window's length): the waiting one is mailed
    await t.query("UPDATE usage_counters SET window_ends = window_ends - interval '15 minutes' WHERE key = $1", [`signup-mail:${victim}`]);
    await jobs.runNow("auth.signup-requests");
    const tokens = await confirmations(victim);
    expect(tokens).toHaveLength(4);
    expect(await t.query("SELECT 1 FROM signup_requests WHERE email = $1 AND mailed_at IS NULL", [victim])).toEqual([]);
    // whichever mail the owner opens, the account is theirs
    await api(t.request())
      .op("confirmSignup", { body: { token: tokens[3], password: OWNER_PASSWORD } })
      .expect(201);
    await api(t.request())
      .op("signIn", { body: { email: victim, password: OWNER_PASSWORD } })
      .expect(200);
    expectError(await api(t.request()).op("signIn", { body: { email: victim, password: ATTACKER_PASSWORD } }), 401, "unauthenticated");
  });
});
