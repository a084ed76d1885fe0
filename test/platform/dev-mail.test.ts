// DEV_MAIL (src/config.ts; src/platform/mail/dev-mail.ts, src/http/dev-mail.ts): without SMTP_URL,
// outside production, each mail is printed as a readable block once its change committed, and
// /dev/mail lists the outbox to this machine (HTML, or JSON). Off, the page is the API's 404.
import type { Request, Response } from "express";
import supertest from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { devMailPage } from "../../src/http/dev-mail.ts";
import { setDevMailSink } from "../../src/platform/mail/dev-mail.ts";
import { appWith, expectError, signupTenant, uniqueEmail, useTestApp } from "../support/app.ts";
import { api } from "../support/api.ts";

const t = useTestApp({ config: { devMail: true } });
const printed: string[] = [];
beforeAll(() => setDevMailSink((text) => printed.push(text)));
afterAll(() => setDevMailSink(undefined));

/** The printed block that names `to` (printed once the request's unit of work has finished). */
async function blockFor(to: string): Promise<string> {
  for (let i = 0; i < 200; i++) {
    const block = printed.find((b) => b.includes(`To:      ${to}\n`));
    if (block) return block;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`no mail to ${to} was printed`);
}

describe("inviteMember: the mail a developer can see without SMTP", () => {
  it("prints each mail as a block with recipient, subject and the text with its link and token", async () => {
    const owner = await signupTenant(t);
    const email = uniqueEmail("invitee");
    await api(owner.agent)
      .op("inviteMember", { body: { email, role: "hr" } })
      .expect(201);
    const block = await blockFor(email);
    expect(block).toContain("Subject: You are invited to join a company on HRMS");
    expect(block).toMatch(/│ Invitation token: \S+/);
    expect(block).toContain("/accept-invite?token=");
    expect(block).toContain("/dev/mail");
  });

  it("prints nothing for a request that queued no mail", async () => {
    const owner = await signupTenant(t);
    const before = printed.length;
    await api(owner.agent).op("listMembers").expect(200);
    const refused = await api(owner.agent).op("inviteMember", { body: { email: "not-an-address", role: "hr" } });
    expectError(refused, 400, "validation_failed");
    expect(printed.length).toBe(before);
  });

  it("lists the outbox at /dev/mail, newest first, as HTML or JSON, narrowed by ?to=", async () => {
    const owner = await signupTenant(t);
    const first = uniqueEmail("first");
    const second = uniqueEmail("second");
    await api(owner.agent)
      .op("inviteMember", { body: { email: first, role: "employee" } })
      .expect(201);
    await api(owner.agent)
      .op("inviteMember", { body: { email: second, role: "employee" } })
      .expect(201);

    const html = await t.request().get("/dev/mail").set("Accept", "text/html").expect(200);
    expect(html.headers["content-type"]).toMatch(/^text\/html/);
    expect(html.headers["cache-control"]).toBe("no-store");
    expect(html.text).toContain('<html lang="en">');
    expect(html.text.indexOf(second)).toBeGreaterThan(-1);
    expect(html.text.indexOf(second)).toBeLessThan(html.text.indexOf(first)); // newest first
    expect(html.text).toMatch(/<a href="http[^"]+\/accept-invite\?token=[^"]+">/); // the link opens

    const json = await t
      .request()
      .get(`/dev/mail?to=${encodeURIComponent(first)}`)
      .set("Accept", "application/json")
      .expect(200);
    expect(json.body.data).toHaveLength(1);
    expect(json.body.data[0]).toMatchObject({ to: first, subject: "You are invited to join a company on HRMS", status: "pending" });
    expect(json.body.data[0].text).toMatch(/Invitation token: \S+/);
  });

  it("is not there when DEV_MAIL is off (SMTP_URL set, tests, production): the API's 404", async () => {
    const off = appWith(t, { devMail: false });
    expectError(await supertest(off.app).get("/dev/mail"), 404, "not_found");
  });

  it("answers only requests from this machine", async () => {
    let passedOn = false;
    const req = { socket: { remoteAddress: "203.0.113.9" }, query: {} } as unknown as Request;
    await devMailPage(req, {} as Response, () => {
      passedOn = true;
    });
    expect(passedOn).toBe(true); // to the 404 of every unknown path
  });

  it("answers only a request made on this machine: no proxy's forwarding headers, a loopback Host (DNS rebinding)", async () => {
    // the socket is loopback in each of these: a local proxy, or a page whose name resolves here
    for (const [name, value] of [
      ["X-Forwarded-For", "203.0.113.9"],
      ["Forwarded", "for=203.0.113.9"],
      ["X-Real-IP", "203.0.113.9"],
      ["Via", "1.1 proxy"],
      ["Host", "attacker.example"],
      ["Host", "attacker.example:3000"],
      ["Host", "localhost.attacker.example"],
    ])
      expectError(await t.request().get("/dev/mail").set(name, value).set("Accept", "application/json"), 404, "not_found");
    for (const host of ["localhost", "localhost:3000", "127.0.0.1:3000", "[::1]:3000"])
      await t.request().get("/dev/mail").set("Host", host).set("Accept", "application/json").expect(200);
  });
});
