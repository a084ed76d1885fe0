// Identity end to end: signup, sign-in/out, session rotation and expiry, failed-sign-in limits,
// password reset and invitations through real mail (SMTP on loopback, delivered by the job
// worker), tenant switching, members and roles.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api } from "../support/api.ts";
import { hashPassword, verifyPassword } from "../../src/platform/identity/passwords.ts";
import { loadConfig } from "../../src/config.ts";
import { registerAllJobs } from "../../src/modules/jobs.ts";
import { jobs } from "../../src/platform/jobs/queue.ts";
import { addMember, appWith, expectDetails, expectError, signupTenant, uniqueEmail, useTestApp } from "../support/app.ts";
import { startMailSink, tokenMailed, type MailSink } from "../support/mail.ts";
import { MEMBER_PASSWORD, MEMBER_PASSWORD_HASH } from "../support/passwords.ts";
import * as clock from "../../src/lib/clock.ts";

const t = useTestApp();
const productionConfig = loadConfig({ NODE_ENV: "production", SESSION_SECRET: "p".repeat(32), PUBLIC_URL: "https://hr.example.com" });
/** `MEMBER_PASSWORD` in the first stored format, `scrypt$<hex-salt>$<hex-hash>` (N = 2^14): accounts made before the cost was recorded. */
const FIRST_FORMAT_HASH =
  "scrypt$a38491fa1ae5a7e13bdd3e486f48070b$" +
  "0e7f95677b8f5e6c22bf17c9a075aa596d6d2718fe4618bde2868e7a11545d5174ccf2a523db101b668f2571e33858a615f41462cc8592075162735ef1863308";
let mail: MailSink;

beforeAll(async () => {
  mail = await startMailSink();
  registerAllJobs();
  await jobs.start(t.url, t.configWith({ smtpUrl: mail.url })); // the worker delivers to the sink
});
afterAll(async () => {
  await jobs.stop();
  await mail.close();
});

function sidOf(res: { headers: Record<string, unknown> }): string | undefined {
  const cookies = (res.headers["set-cookie"] as string[] | undefined) ?? [];
  return cookies.find((c) => c.startsWith("hrms.sid="))?.split(";")[0];
}

describe("signup and passwords", () => {
  it("stores the password as scrypt$ln=<cost>,r=8,p=1$<hex-salt>$<hex-hash> at the configured cost, and verifies it", async () => {
    const o = await signupTenant(t, { password: "a-very-good-password" });
    const [u] = await t.query<{ password_hash: string }>("SELECT password_hash FROM users WHERE id = $1", [o.userId]);
    expect(u.password_hash).toMatch(new RegExp(`^scrypt\\$ln=${t.config.passwordHashCost},r=8,p=1\\$[0-9a-f]{32}\\$[0-9a-f]{128}$`));
    expect(await verifyPassword("a-very-good-password", u.password_hash)).toBe(true);
    expect(await verifyPassword("a-very-good-passworD", u.password_hash)).toBe(false);
  });

  it("hashes at production's cost (N = 2^14) unless PASSWORD_HASH_COST says otherwise, and verifies every format", async () => {
    expect(productionConfig.passwordHashCost).toBe(14);
    const hash = await hashPassword("a-very-good-password", productionConfig.passwordHashCost);
    expect(hash).toMatch(/^scrypt\$ln=14,r=8,p=1\$[0-9a-f]{32}\$[0-9a-f]{128}$/);
    expect(await verifyPassword("a-very-good-password", hash)).toBe(true);
    // the first format, without parameters, is N = 2^14
    expect(await verifyPassword(MEMBER_PASSWORD, FIRST_FORMAT_HASH)).toBe(true);
    expect(await verifyPassword(`${MEMBER_PASSWORD}x`, FIRST_FORMAT_HASH)).toBe(false);
    // parameters outside the accepted range, or another r or p, are no hash of ours
    expect(await verifyPassword("a-very-good-password", hash.replace("ln=14", "ln=30"))).toBe(false);
    expect(await verifyPassword("a-very-good-password", hash.replace("r=8", "r=1"))).toBe(false);
  });

  it("accepts the tests' precomputed member hash (test/support/passwords.ts), so it stays in the stored format", async () => {
    expect(MEMBER_PASSWORD_HASH.startsWith(`scrypt$ln=${t.config.passwordHashCost},r=8,p=1$`)).toBe(true);
    expect(await verifyPassword(MEMBER_PASSWORD, MEMBER_PASSWORD_HASH)).toBe(true);
    expect(await verifyPassword(`${MEMBER_PASSWORD}x`, MEMBER_PASSWORD_HASH)).toBe(false);
  });

  it("signIn upgrades a hash made at another cost, or in the first format, once the password is right", async () => {
    const owner = await signupTenant(t);
    const member = await addMember(t, owner, "employee");
    const stored = async () =>
      (await t.query<{ password_hash: string }>("SELECT password_hash FROM users WHERE id = $1", [member.userId]))[0].password_hash;
    // at the configured cost already: left as it is
    await api(t.request())
      .op("signIn", { body: { email: member.email, password: MEMBER_PASSWORD } })
      .expect(200);
    expect(await stored()).toBe(MEMBER_PASSWORD_HASH);
    await t.query("UPDATE users SET password_hash = $2 WHERE id = $1", [member.userId, FIRST_FORMAT_HASH]);
    const raised = appWith(t, { passwordHashCost: t.config.passwordHashCost + 1 });
    // a wrong password changes nothing
    await api(raised.as(t.request()))
      .op("signIn", { body: { email: member.email, password: "not-the-password" } })
      .expect(401);
    expect(await stored()).toBe(FIRST_FORMAT_HASH);
    await api(raised.as(t.request()))
      .op("signIn", { body: { email: member.email, password: MEMBER_PASSWORD } })
      .expect(200);
    const upgraded = await stored();
    expect(upgraded.startsWith(`scrypt$ln=${t.config.passwordHashCost + 1},r=8,p=1$`)).toBe(true);
    expect(await verifyPassword(MEMBER_PASSWORD, upgraded)).toBe(true);
    // and the upgraded hash signs in on the file's app too (each hash verifies with its own parameters)
    await api(t.request())
      .op("signIn", { body: { email: member.email, password: MEMBER_PASSWORD } })
      .expect(200);
  });

  it("creates the company with the user as owner and no optional module", async () => {
    const o = await signupTenant(t, { company: "Acme Pvt Ltd" });
    const s = await api(o.agent).op("getSession").expect(200);
    expect(s.body.data.tenants).toEqual([{ id: o.tenantId, name: "Acme Pvt Ltd", role: "owner" }]);
    expect(s.body.data.modules).toEqual([]);
  });

  it("creates no second account for the same email (any case), and refuses short passwords", async () => {
    const email = uniqueEmail("dup");
    await signupTenant(t, { email });
    await api(t.request())
      .op("signup", { body: { name: "X", email: email.toUpperCase(), password: "long-enough-pw" } })
      .expect(202);
    await jobs.runNow("auth.signup-requests");
    expect(await t.query("SELECT 1 FROM users WHERE email = $1", [email])).toHaveLength(1);
    expect(await t.query("SELECT 1 FROM signup_requests WHERE email = $1", [email])).toEqual([]);
    const bad = expectDetails(
      await api(t.request()).op("signup", { body: { name: "X", email: uniqueEmail(), password: "short" } }),
      400,
      "validation_failed",
    );
    expect(bad.details.map((d: { path: string }) => d.path)).toContain("body.password");
  });
});

describe("signIn, getSession, signOut: sign-in, sessions, sign-out", () => {
  it("rotates the session id at sign-in and ends the session at sign-out", async () => {
    const o = await signupTenant(t);
    const a = t.request();
    const first = await api(a)
      .op("signIn", { body: { email: o.email, password: o.password } })
      .expect(200);
    const second = await api(a)
      .op("signIn", { body: { email: o.email, password: o.password } })
      .expect(200);
    expect(sidOf(first)).toBeDefined();
    expect(sidOf(second)).not.toEqual(sidOf(first));
    expect(first.headers["set-cookie"][0]).toMatch(/HttpOnly/i);
    expect(first.headers["set-cookie"][0]).toMatch(/SameSite=Lax/i);
    await api(a).op("getSession").expect(200);
    await api(a).op("signOut").expect(200);
    expectError(await api(a).op("getSession"), 401, "unauthenticated");
  });

  it("an expired session is rejected", async () => {
    const o = await signupTenant(t);
    await t.query(`UPDATE "session" SET expire = now() - interval '1 minute' WHERE sess->>'userId' = $1`, [o.userId]);
    expectError(await api(o.agent).op("getSession"), 401, "unauthenticated");
  });

  it("wrong credentials are a 401 without saying which part was wrong, and are audited", async () => {
    const o = await signupTenant(t);
    const a = expectError(
      await api(t.request()).op("signIn", { body: { email: o.email, password: "wrong-password" } }),
      401,
      "unauthenticated",
    );
    const b = expectError(
      await api(t.request()).op("signIn", { body: { email: uniqueEmail("nobody"), password: "wrong-password" } }),
      401,
      "unauthenticated",
    );
    expect(a.error).toBe(b.error);
    const log = await api(o.agent)
      .op("listActivityLog", { query: { action: "auth.sign_in_failed" } })
      .expect(200);
    expect(log.body.data).toHaveLength(1);
    expect(log.body.data[0]).toMatchObject({ actor_email: o.email, entity_id: o.userId });
  });

  it("limits failed sign-ins per account (429 with Retry-After), even for the right password", async () => {
    const o = await signupTenant(t);
    for (let i = 0; i < 5; i++) expectError(await api(t.request()).op("signIn", { body: { email: o.email, password: `nope-${i}` } }), 401);
    const res = await api(t.request()).op("signIn", { body: { email: o.email, password: o.password } });
    expectError(res, 429, "rate_limited");
    expect(Number(res.headers["retry-after"])).toBeGreaterThan(0);
    // another account from the same IP is not blocked by this account's limit
    const other = await signupTenant(t);
    await api(t.request())
      .op("signIn", { body: { email: other.email, password: other.password } })
      .expect(200);
  });
});

describe("forgotPassword, resetPassword: password reset by mail", () => {
  it("mails a single-use token, sets the new password and ends every session", async () => {
    const o = await signupTenant(t);
    const other = t.request();
    await api(other)
      .op("signIn", { body: { email: o.email, password: o.password } })
      .expect(200);
    await api(t.request())
      .op("forgotPassword", { body: { email: o.email } })
      .expect(200);
    const token = await tokenMailed(mail, o.email, "Reset token");
    const [row] = await t.query("SELECT token_hash FROM password_reset_tokens pr JOIN users u ON u.id = pr.user_id WHERE u.id = $1", [
      o.userId,
    ]);
    expect(row.token_hash).not.toContain(token); // only the hash is stored
    await api(t.request())
      .op("resetPassword", { body: { token, password: "brand-new-password" } })
      .expect(200);
    expectError(await api(o.agent).op("getSession"), 401);
    expectError(await api(other).op("getSession"), 401);
    expectError(await api(t.request()).op("signIn", { body: { email: o.email, password: o.password } }), 401);
    await api(t.request())
      .op("signIn", { body: { email: o.email, password: "brand-new-password" } })
      .expect(200);
    expectError(await api(t.request()).op("resetPassword", { body: { token, password: "another-password" } }), 400, "invalid_token");
  });

  it("answers 200 for an unknown email and sends nothing", async () => {
    const email = uniqueEmail("ghost");
    await api(t.request()).op("forgotPassword", { body: { email } }).expect(200);
    await jobs.runNow("auth.password-reset-requests"); // the look-up happens after the answer
    const rows = await t.query("SELECT 1 FROM email_outbox WHERE to_address = $1", [email]);
    expect(rows).toHaveLength(0);
  });

  it("refuses an expired token", async () => {
    const o = await signupTenant(t);
    await api(t.request())
      .op("forgotPassword", { body: { email: o.email } })
      .expect(200);
    const token = await tokenMailed(mail, o.email, "Reset token");
    await t.query("UPDATE password_reset_tokens SET expires_at = $2::timestamptz - interval '1 second' WHERE user_id = $1", [
      o.userId,
      clock.now(),
    ]);
    expectError(await api(t.request()).op("resetPassword", { body: { token, password: "brand-new-password" } }), 400, "invalid_token");
  });
});

describe(
  "inviteMember, acceptInvite, listMembers, updateMember, removeMember, refreshSession, " +
    "switchTenant, getCompanySettings, listActivityLog: invitations, members and roles",
  () => {
    it("invite → mail → accept creates the user and membership; role change and removal take effect at once", async () => {
      const o = await signupTenant(t, { company: "Invite Co" });
      const email = uniqueEmail("invitee");
      const inv = await api(o.agent)
        .op("inviteMember", { body: { email, role: "hr" } })
        .expect(201);
      expect(inv.body.data).toMatchObject({ email, role: "hr", status: "pending" });
      const token = await tokenMailed(mail, email, "Invitation token");
      const invitee = t.request();
      expectError(await api(invitee).op("acceptInvite", { body: { token } }), 400, "validation_failed");
      const accepted = await api(invitee)
        .op("acceptInvite", { body: { token, name: "Harini HR", password: "invitee-password" } })
        .expect(200);
      expect(accepted.body.data).toMatchObject({ active_tenant_id: o.tenantId, role: "hr" });
      expectError(
        await api(t.request()).op("acceptInvite", { body: { token, name: "Again", password: "invitee-password" } }),
        400,
        "invalid_token",
      );

      const members = await api(o.agent).op("listMembers").expect(200);
      const m = members.body.data.members.find((x) => x.email === email);
      if (!m) throw new Error(`${email} is not among the members`);
      expect(m.role).toBe("hr");
      // hr may read members but not change company settings
      await api(invitee).op("listMembers").expect(200);
      expectError(await api(invitee).op("updateCompanySettings", { body: { name: "Nope" } }), 403, "forbidden");

      await api(o.agent)
        .op("updateMember", { params: { userId: m.user_id }, body: { role: "employee" } })
        .expect(200);
      expectError(await api(invitee).op("listMembers"), 403, "forbidden");
      const log = await api(o.agent)
        .op("listActivityLog", { query: { action: "member.role_changed" } })
        .expect(200);
      expect(log.body.data[0].changes).toEqual({ role: { from: "hr", to: "employee" } });

      await api(o.agent)
        .op("removeMember", { params: { userId: m.user_id } })
        .expect(200);
      expectError(await api(invitee).op("getCompanySettings"), 401, "unauthenticated");
      const s = await api(invitee).op("refreshSession").expect(200);
      expect(s.body.data).toMatchObject({ tenants: [], active_tenant_id: null });
    });

    it("an existing user accepts with their password and then belongs to two tenants, seeing each one's data only", async () => {
      const a = await signupTenant(t, { company: "Tenant A" });
      const b = await signupTenant(t, { company: "Tenant B" });
      await api(b.agent)
        .op("updateCompanySettings", { body: { address: "B street" } })
        .expect(200);
      await api(b.agent)
        .op("inviteMember", { body: { email: a.email, role: "admin" } })
        .expect(201);
      const token = await tokenMailed(mail, a.email, "Invitation token");
      expectError(await api(t.request()).op("acceptInvite", { body: { token, password: "wrong-password" } }), 401);
      const both = t.request();
      await api(both)
        .op("acceptInvite", { body: { token, password: a.password } })
        .expect(200);
      const inB = await api(both).op("getCompanySettings").expect(200);
      expect(inB.body.data).toMatchObject({ id: b.tenantId, address: "B street" });
      const logB = await api(both).op("listActivityLog").expect(200);
      expect(logB.body.data.some((e) => e.entity_id === b.tenantId)).toBe(true);
      expect(logB.body.data.some((e) => e.entity_id === a.tenantId)).toBe(false);
      await api(both)
        .op("switchTenant", { body: { tenantId: a.tenantId } })
        .expect(200);
      const inA = await api(both).op("getCompanySettings").expect(200);
      expect(inA.body.data).toMatchObject({ id: a.tenantId, address: null });
      const sess = await api(both).op("getSession").expect(200);
      expect(sess.body.data.tenants.map((x) => x.id).sort()).toEqual([a.tenantId, b.tenantId].sort());
    });

    it("switchTenant rotates the session id: the cookie from before the switch no longer signs in", async () => {
      const a = await signupTenant(t);
      const b = await signupTenant(t);
      await t.query("INSERT INTO memberships (tenant_id, user_id, role) VALUES ($1, $2, 'admin')", [b.tenantId, a.userId]);
      const signIn = await api(t.request())
        .op("signIn", { body: { email: a.email, password: a.password } })
        .expect(200);
      const cookieOf = (res: { headers: Record<string, unknown> }) =>
        ([] as string[])
          .concat((res.headers["set-cookie"] as string[] | undefined) ?? [])
          .find((c) => c.startsWith("hrms.sid="))
          ?.split(";")[0];
      const before = cookieOf(signIn);
      expect(before).toBeTruthy();
      const switched = await t.request().post("/api/auth/switch-tenant").set("Cookie", before!).send({ tenantId: b.tenantId }).expect(200);
      const after = cookieOf(switched);
      expect(after).toBeTruthy();
      expect(after).not.toBe(before);
      expectError(await t.request().get("/api/auth/session").set("Cookie", before!), 401, "unauthenticated");
      const now = await t.request().get("/api/auth/session").set("Cookie", after!).expect(200);
      expect(now.body.data.active_tenant_id).toBe(b.tenantId);
    });

    it("switching to a tenant the user does not belong to is a 404", async () => {
      const a = await signupTenant(t);
      const b = await signupTenant(t);
      expectError(await api(a.agent).op("switchTenant", { body: { tenantId: b.tenantId } }), 404, "not_found");
      const s = await api(a.agent).op("getSession").expect(200);
      expect(s.body.data.active_tenant_id).toBe(a.tenantId);
    });

    it("protects the owner role: admins cannot grant it, the last owner cannot leave", async () => {
      const o = await signupTenant(t);
      const admin = await addMember(t, o, "admin");
      const emp = await addMember(t, o, "employee");
      expectError(await api(admin.agent).op("updateMember", { params: { userId: emp.userId }, body: { role: "owner" } }), 403, "forbidden");
      expectError(await api(admin.agent).op("removeMember", { params: { userId: o.userId } }), 403, "forbidden");
      expectError(await api(o.agent).op("updateMember", { params: { userId: o.userId }, body: { role: "admin" } }), 409, "conflict");
      expectError(await api(o.agent).op("removeMember", { params: { userId: o.userId } }), 409, "conflict");
      expectError(await api(admin.agent).op("inviteMember", { body: { email: uniqueEmail(), role: "owner" } }), 403, "forbidden");
      expectError(await api(o.agent).op("inviteMember", { body: { email: emp.email, role: "hr" } }), 409, "conflict");
      // an employee cannot manage members at all
      expectError(await api(emp.agent).op("listMembers"), 403, "forbidden");
    });
  },
);
