// Invitations are mail to any address a member types: they are limited per company (harder for a
// new company), per inviting member, per company and address, and per address from every company,
// at the production values (the test processes run with limits no fixture reaches); the subject is
// fixed and members' text is bounded and quoted in the body; and a pending invitation does not
// outlive its inviter's right to send it. Mail stays in the outbox.
import { describe, expect, it } from "vitest";
import * as clock from "../../src/lib/clock.ts";
import { addMember, expectError, signupTenant, type TenantSession, uniqueEmail, useTestApp } from "../support/app.ts";
import { productionLimits } from "../support/limits.ts";
import { expectRateLimitHeaders } from "../support/rate-limit.ts";
import { api } from "../support/api.ts";

const { invitesPerAddressPerDay, invitesPerRecipientPerDay, invitesPerUserPerHour, invitesPerNewTenantPerDay, invitesPerTenantPerDay } =
  productionLimits;
const t = useTestApp({
  config: { invitesPerAddressPerDay, invitesPerRecipientPerDay, invitesPerUserPerHour, invitesPerNewTenantPerDay, invitesPerTenantPerDay },
});
const DAY_S = 24 * 3600;

const invite = (who: TenantSession, email: string, role = "employee") => who.agent.post("/api/configuration/members").send({ email, role });
const mailsTo = (email: string) =>
  t.query<{ subject: string; text_body: string }>("SELECT subject, text_body FROM email_outbox WHERE to_address = $1 ORDER BY created_at", [
    email,
  ]);
const tokenOf = (mail: { text_body: string }) => /Invitation token: ([A-Za-z0-9_-]+)/.exec(mail.text_body)![1];

describe("inviteMember: limits", () => {
  it("25 invitations to one address: INVITES_PER_ADDRESS_PER_DAY mailed, the rest 429 `invite-address` and mail nothing", async () => {
    const o = await signupTenant(t);
    const victim = uniqueEmail("relay.victim");
    const answers = [];
    for (let i = 0; i < 25; i++) answers.push(await invite(o, victim));
    expect(answers.slice(0, invitesPerAddressPerDay).map((r) => r.status)).toEqual(Array(invitesPerAddressPerDay).fill(201));
    for (const refused of answers.slice(invitesPerAddressPerDay)) expectError(refused, 429, "rate_limited");
    expectRateLimitHeaders(answers[24], { name: "invite-address", limit: invitesPerAddressPerDay, windowSeconds: DAY_S });
    expect(answers[24].body.error).toMatch(`Invitation limit reached (${invitesPerAddressPerDay} to one address per company per day)`);
    expect(await mailsTo(victim)).toHaveLength(invitesPerAddressPerDay);
  });

  it("an address gets at most INVITES_PER_RECIPIENT_PER_DAY invitations from all companies together", async () => {
    const x = uniqueEmail("recipient");
    // each company up to its own limit for the address
    for (let sent = 0; sent < invitesPerRecipientPerDay; ) {
      const company = await signupTenant(t);
      for (let i = 0; i < invitesPerAddressPerDay && sent < invitesPerRecipientPerDay; i++, sent++) await invite(company, x).expect(201);
    }
    const refused = await invite(await signupTenant(t), x);
    expectRateLimitHeaders(refused, { name: "invite-recipient", limit: invitesPerRecipientPerDay, windowSeconds: DAY_S });
    expect(await mailsTo(x)).toHaveLength(invitesPerRecipientPerDay);
  });

  it("a member sends at most INVITES_PER_USER_PER_HOUR; another member of the company still can", async () => {
    const o = await signupTenant(t);
    const admin = await addMember(t, o, "admin");
    await establish(o); // a new company's own limit is lower than a member's
    for (let i = 0; i < invitesPerUserPerHour; i++) await invite(o, uniqueEmail("per.user")).expect(201);
    const refused = await invite(o, uniqueEmail("per.user"));
    expectRateLimitHeaders(refused, { name: "invite-user", limit: invitesPerUserPerHour, windowSeconds: 3600 });
    await invite(admin, uniqueEmail("per.user")).expect(201);
  });

  it("a new company is held to INVITES_PER_NEW_TENANT_PER_DAY; once established, to INVITES_PER_TENANT_PER_DAY", async () => {
    expect(invitesPerNewTenantPerDay).toBeLessThan(invitesPerTenantPerDay);
    const o = await signupTenant(t);
    const admin = await addMember(t, o, "admin");
    for (let i = 0; i < invitesPerNewTenantPerDay - 2; i++) await invite(o, uniqueEmail("new.co")).expect(201);
    for (let i = 0; i < 2; i++) await invite(admin, uniqueEmail("new.co")).expect(201);
    const refused = await invite(admin, uniqueEmail("new.co"));
    expectRateLimitHeaders(refused, { name: "invite-tenant", limit: invitesPerNewTenantPerDay, windowSeconds: DAY_S });
    expect(refused.body.error).toMatch(/per new company per day/);
    await establish(o);
    await invite(admin, uniqueEmail("old.co")).expect(201);
  });
});

/** The company, created eight days before the server's clock (no subscription either way): established. */
const establish = (o: TenantSession) =>
  t.query("UPDATE tenants SET created_at = $2::timestamptz - interval '8 days' WHERE id = $1", [o.tenantId, clock.now()]);

describe("inviteMember: what the mail says", () => {
  it("keeps members' text out of the subject; in the body it is one line, bounded and quoted", async () => {
    const o = await signupTenant(t, { company: "Company 1" });
    const pitch = `WIN A PRIZE\nClaim now at https://prize.example/${"x".repeat(150)}`;
    await api(o.agent)
      .op("updateCompanySettings", { body: { name: pitch } })
      .expect(200);
    const email = uniqueEmail("subject");
    await invite(o, email, "hr").expect(201);
    const [mail] = await mailsTo(email);
    expect(mail.subject).toBe("You are invited to join a company on HRMS");
    expect(mail.text_body).toContain("You are invited to join a company on HRMS as hr.");
    const line = mail.text_body.split("\n").find((l) => l.startsWith("Company, as its administrators named it: "))!;
    expect(line).toMatch(/^Company, as its administrators named it: "WIN A PRIZE Claim now at https:\/\/prize\.example\/x+…"$/);
    expect(line.length).toBeLessThan(140);
    expect(mail.text_body).toContain('Invited by, as they gave their name: "Olivia Owner"');
  });
});

describe("updateMember, removeMember, acceptInvite: an invitation does not outlive its inviter's right to send it", () => {
  it("demoting or removing the inviter revokes their pending invitations; accepting one is a 400", async () => {
    const o = await signupTenant(t);
    const admin = await addMember(t, o, "admin");
    const other = await addMember(t, o, "admin");
    const [x, y] = [uniqueEmail("by.demoted"), uniqueEmail("by.removed")];
    await invite(admin, x, "hr").expect(201);
    await invite(other, y, "manager").expect(201);
    await api(o.agent)
      .op("updateMember", { params: { userId: admin.userId }, body: { role: "employee" } })
      .expect(200);
    await api(o.agent)
      .op("removeMember", { params: { userId: other.userId } })
      .expect(200);
    const list = await api(o.agent).op("listMembers").expect(200);
    expect(list.body.data.invitations.map((i: { email: string }) => i.email)).not.toContain(x);
    expect(list.body.data.invitations.map((i: { email: string }) => i.email)).not.toContain(y);
    const log = await api(o.agent)
      .op("listActivityLog", { query: { action: "member.invitations_revoked" } })
      .expect(200);
    expect(log.body.data).toHaveLength(2);
    for (const email of [x, y]) {
      const [mail] = await mailsTo(email);
      expectError(
        await api(t.request()).op("acceptInvite", { body: { token: tokenOf(mail), name: "Late Joiner", password: "late-joiner-otter-5" } }),
        400,
        "invalid_token",
      );
    }
    expect(await t.query("SELECT 1 FROM users WHERE email = ANY($1)", [[x, y]])).toEqual([]);
  });

  it("an owner who becomes admin loses the owner invitations they sent, keeps the others", async () => {
    const o = await signupTenant(t);
    const second = await addMember(t, o, "admin");
    await t.query("UPDATE memberships SET role = 'owner' WHERE tenant_id = $1 AND user_id = $2", [o.tenantId, second.userId]);
    const [asOwner, asHr] = [uniqueEmail("owner.invite"), uniqueEmail("hr.invite")];
    await invite(second, asOwner, "owner").expect(201);
    await invite(second, asHr, "hr").expect(201);
    await api(o.agent)
      .op("updateMember", { params: { userId: second.userId }, body: { role: "admin" } })
      .expect(200);
    const pending = (await api(o.agent).op("listMembers").expect(200)).body.data.invitations.map((i: { email: string }) => i.email);
    expect(pending).toContain(asHr);
    expect(pending).not.toContain(asOwner);
    const [hrMail] = await mailsTo(asHr);
    await api(t.request())
      .op("acceptInvite", { body: { token: tokenOf(hrMail), name: "Hema HR", password: "hema-hr-granite-44" } })
      .expect(200);
  });

  it("accepting checks the inviter still may send it, however their role changed", async () => {
    const o = await signupTenant(t);
    const admin = await addMember(t, o, "admin");
    const email = uniqueEmail("checked.at.accept");
    await invite(admin, email, "employee").expect(201);
    // a role changed without the members operation (e.g. directly by an operator)
    await t.query("UPDATE memberships SET role = 'hr' WHERE tenant_id = $1 AND user_id = $2", [o.tenantId, admin.userId]);
    const [mail] = await mailsTo(email);
    const refused = expectError(
      await api(t.request()).op("acceptInvite", { body: { token: tokenOf(mail), name: "Eve Employee", password: "eve-employee-otter-6" } }),
      400,
      "invalid_token",
    );
    expect(refused.error).toMatch(/can no longer invite/);
  });
});
