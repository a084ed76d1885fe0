// getSignupConfirmPage, getAcceptInvitePage, getResetPasswordPage, getSignInPage, getForgotPasswordPage:
// the links of the account mails (signup confirmation, invitation, password reset, the notices' sign-in
// and forgot-password) open pages of this server while APP_URL is this server (its default), and a person
// finishes there in a real headless Chromium: types into the form, presses the button, reads the answer.
// The signup and invitation pages show the privacy notice joined under and send nothing until it is
// acknowledged; the acknowledgement is then the member's (getPrivacyNotice).
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withConfig } from "../../src/config.ts";
import { createServer } from "../../src/http/server.ts";
import { registerAllJobs } from "../../src/modules/jobs.ts";
import { jobs } from "../../src/platform/jobs/queue.ts";
import { type Browser, launchBrowser } from "../support/browser.ts";
import { signupTenant, uniqueEmail, useTestApp } from "../support/app.ts";
import { api, type ResponseBody } from "../support/api.ts";

const t = useTestApp();
registerAllJobs();
let server: Server;
let base: string;
let browser: Browser;
beforeAll(async () => {
  server = createServer(t.app);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
});

/** The path and query of the newest mailed link to `email` whose path is `linkPath`. */
async function mailedLink(email: string, linkPath: string): Promise<string> {
  const [row] = await t.query<{ text_body: string }>(
    "SELECT text_body FROM email_outbox WHERE to_address = $1 ORDER BY created_at DESC LIMIT 1",
    [email.toLowerCase()],
  );
  // regex-bounded: test data
  const link = new RegExp(`(\\S+${linkPath.replace(/[/?]/g, "\\$&")}\\?token=\\S+)`).exec(row?.text_body ?? "")?.[1];
  if (!link) throw new Error(`no ${linkPath} link in the mail to ${email}: ${row?.text_body}`);
  const url = new URL(link);
  return `${url.pathname}${url.search}`;
}

/** Types `values` into the page's fields (by id) and presses the form's button, as a person does. */
const fillAndSubmit = (values: Record<string, string>) =>
  browser.evaluate(`(() => {
    for (const [id, value] of Object.entries(${JSON.stringify(values)})) {
      const input = document.getElementById(id);
      input.value = value;
      input.dispatchEvent(new Event("input", { bubbles: true }));
    }
    document.querySelector("form button[type=submit]").click();
  })()`);
const status = () =>
  browser.waitFor<string>(
    `(() => { const s = document.querySelector("[role=status]").textContent; return s && !/Sending/.test(s) && s; })()`,
  );
/** Ticks the privacy notice's acknowledgement by clicking its label, as a person does. */
const acknowledgeNotice = () => browser.evaluate(`document.querySelector("label[for=privacy_notice_version]").click()`);
/** The live region's text at once: a form the browser held back (a required box unticked) leaves it empty. */
const statusNow = () => browser.evaluate<string>(`document.querySelector("[role=status]").textContent`);
/** The member's privacy notice status, read with the browser's session (the body as a 200 has it). */
const browserNotice = () =>
  browser.evaluate<{ status: number; body: ResponseBody<"getPrivacyNotice", 200> }>(
    `fetch("/api/privacy/notice").then(async (r) => ({ status: r.status, body: await r.json() }))`,
  );
/** The session the browser holds now (its cookie), as a client sees it (the body as a 200 has it). */
const browserSession = () =>
  browser.evaluate<{ status: number; body: ResponseBody<"getSession", 200> }>(
    `fetch("/api/auth/session").then(async (r) => ({ status: r.status, body: await r.json() }))`,
  );

describe("getSignupConfirmPage: the confirmation link opens a page that creates the account", () => {
  it("choosing a password there creates the account and the company, signs in and links to /docs", async () => {
    const email = uniqueEmail("pages-signup");
    await api(t.request())
      .op("signup", { body: { name: "Asha Kulkarni", email, company_name: "Kulkarni Textiles" } })
      .expect(202);
    await withConfig(t.config, () => jobs.runNow("auth.signup-requests"));
    const link = await mailedLink(email, "/signup/confirm");
    await browser.open(`${base}${link}`);
    expect(await browser.evaluate("document.title")).toBe("Finish signing up");
    expect(await browser.evaluate("document.documentElement.dataset.actions")).toBe("ready"); // the script ran under the CSP
    // the built-in notice the new company starts with, and nothing is sent until it is acknowledged
    expect(await browser.evaluate("document.getElementById('privacy-notice').textContent")).toMatch(
      /We process your personal data to employ you.*Data Protection Board of India/s,
    );
    await fillAndSubmit({ password: "kulkarni-loom-harbour" });
    expect(await statusNow()).toBe("");
    expect(await browser.evaluate("document.getElementById('privacy_notice_version').validity.valueMissing")).toBe(true);
    expect((await browserSession()).status).toBe(401);
    await acknowledgeNotice();
    // a weak password: the answer's details are shown, and the link still works
    await fillAndSubmit({ password: "password123" });
    expect(await status()).toMatch(/password.*(common|guess)|breached|weak/i);
    await browser.evaluate(`document.querySelector("[role=status]").textContent = ""`);
    await fillAndSubmit({ password: "kulkarni-loom-harbour" });
    expect(await status()).toMatch(/Your account and your company are ready, and you are signed in/);
    expect(await browser.evaluate(`document.querySelector("[role=status] a").getAttribute("href")`)).toBe("/docs");
    const session = await browserSession();
    expect(session.status).toBe(200);
    expect(session.body.data.user.email).toBe(email.toLowerCase());
    expect(session.body.data.tenants[0].name).toBe("Kulkarni Textiles");
    const notice = await browserNotice();
    expect(notice.status).toBe(200);
    expect(notice.body.data).toMatchObject({ acknowledged: true, notice: { version: 0 } });
  });

  it("without its token the page says to open the link from the mail", async () => {
    const res = await api(t.request()).op("getSignupConfirmPage").expect(200);
    expect(res.headers["content-type"]).toMatch(/^text\/html; charset=utf-8/i);
    expect(res.text).toContain("This page needs the link from your e-mail");
    expect(res.text).not.toContain("<form");
  });
});

describe("getAcceptInvitePage: the invitation link opens a page that accepts it", () => {
  it("a new address: names the company and role, takes a name and password, joins and signs in", async () => {
    const owner = await signupTenant(t, { company: "Nair & Rao Logistics" });
    const email = uniqueEmail("pages-invitee");
    const text = "Nair & Rao keep your data <only> to employ and pay you; write to our grievance officer about your rights.";
    const purposes = [{ record_class: "payslips", purpose: "Paying you and the PF returns", basis: "legal_obligation" as const }];
    await api(owner.agent).op("publishPrivacyNotice", { body: { text, purposes } }).expect(201);
    await api(owner.agent)
      .op("inviteMember", { body: { email, role: "hr" } })
      .expect(201);
    const link = await mailedLink(email, "/accept-invite");
    await browser.open(`${base}${link}`);
    expect(await browser.evaluate("document.querySelector('h1').textContent")).toBe("Join Nair & Rao Logistics");
    expect(await browser.evaluate("document.querySelector('main').textContent")).toContain("invited as hr");
    // the company's current notice (version 1, its text as written), not sent until acknowledged
    const shown = await browser.evaluate<string>("document.getElementById('privacy-notice').textContent");
    expect(shown).toContain(text);
    expect(shown).toContain("Paying you and the PF returns");
    expect(await browser.evaluate("document.querySelector('label[for=privacy_notice_version]').textContent")).toMatch(/version 1/);
    await fillAndSubmit({ name: "Meera Nair", password: "backwater-ferry-lantern" });
    expect(await statusNow()).toBe("");
    const before = await api(owner.agent).op("listMembers").expect(200);
    expect(before.body.data.members.some((m) => m.email === email.toLowerCase())).toBe(false);
    await acknowledgeNotice();
    await fillAndSubmit({ name: "Meera Nair", password: "backwater-ferry-lantern" });
    expect(await status()).toMatch(/You joined Nair & Rao Logistics and are signed in/);
    const session = await browserSession();
    expect(session.body.data.user.name).toBe("Meera Nair");
    expect(session.body.data.active_tenant_id).toBe(owner.tenantId);
    const members = await api(owner.agent).op("listMembers").expect(200);
    expect(members.body.data.members.some((m) => m.email === email.toLowerCase() && m.role === "hr")).toBe(true);
    const notice = await browserNotice();
    expect(notice.body.data).toMatchObject({ acknowledged: true, notice: { version: 1, text } });
  });

  it("an address with an account asks for its current password; a used link says to ask for a new one", async () => {
    const owner = await signupTenant(t);
    const other = await signupTenant(t);
    await api(owner.agent)
      .op("inviteMember", { body: { email: other.email, role: "employee" } })
      .expect(201);
    const link = await mailedLink(other.email, "/accept-invite");
    await browser.open(`${base}${link}`);
    expect(await browser.evaluate("document.getElementById('name')")).toBeNull();
    expect(await browser.evaluate("document.querySelector('label[for=password]').textContent")).toBe("Your current password");
    await acknowledgeNotice();
    await fillAndSubmit({ password: "not-the-password-at-all" });
    expect(await status()).toMatch(/current password/);
    await browser.evaluate(`document.querySelector("[role=status]").textContent = ""`);
    await fillAndSubmit({ password: other.password });
    expect(await status()).toMatch(/You joined .* and are signed in/);
    const again = await t.request().get(link).expect(200);
    expect(again.text).toContain("This invitation is invalid, already used or expired. Ask the company for a new one.");
  });
});

describe("getResetPasswordPage, getSignInPage, getForgotPasswordPage: the reset link, then signing in", () => {
  it("asks for a link, sets a new password from the mailed link, signs in with it on the sign-in page", async () => {
    const owner = await signupTenant(t);
    await browser.open(`${base}/forgot-password`);
    await fillAndSubmit({ email: owner.email });
    expect(await status()).toMatch(/a reset link is on its way/);
    await withConfig(t.config, () => jobs.runNow("auth.password-reset-requests"));
    const link = await mailedLink(owner.email, "/reset-password");
    await browser.open(`${base}${link}`);
    await fillAndSubmit({ password: "monsoon-teapot-harbour" });
    expect(await status()).toMatch(/Your password is changed/);
    expect(await browser.evaluate(`document.querySelector("[role=status] a").getAttribute("href")`)).toBe("/sign-in");
    await browser.open(`${base}/sign-in`);
    await fillAndSubmit({ email: owner.email, password: "monsoon-teapot-harbour" });
    expect(await status()).toMatch(/You are signed in/);
    expect((await browserSession()).body.data.user.email).toBe(owner.email.toLowerCase());
  });
});

describe("getSignupConfirmPage, getAcceptInvitePage, getResetPasswordPage, getSignInPage, getForgotPasswordPage: the pages", () => {
  it("each answers an HTML page to a plain GET (an unknown invitation gets a page that says so)", async () => {
    const o = await signupTenant(t);
    for (const path of ["/signup/confirm?token=x", "/accept-invite?token=x", "/reset-password?token=x", "/sign-in", "/forgot-password"]) {
      const r = await o.agent.get(path);
      expect([r.status, r.headers["content-type"]], path).toEqual([200, expect.stringMatching(/^text\/html/)]);
      if (!path.startsWith("/accept-invite")) expect(r.text, path).toContain("<form");
    }
  });
});
