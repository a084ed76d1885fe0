// getPublicOfferPage, getPublicAppointmentPage: what the candidate's mailed links open in a browser
// - the offer and the appointment as readable HTML pages, with the PDF link and the accept/decline
// buttons wired to the public operations by /assets/public-link.js. Rendered in a real headless
// Chromium (installed by `make unit` where missing, as for test/platform/docs.test.ts).
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServer } from "../../src/http/server.ts";
import { expectError, useTestApp } from "../support/app.ts";
import { draftOffer, recruitingCompany } from "./fixtures.ts";
import { api } from "../support/api.ts";

const t = useTestApp();
const chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"].find((p) => existsSync(p));
let server: Server;
let base: string;
beforeAll(async () => {
  server = createServer(t.app);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  return new Promise<void>((r) => server.close(() => r()));
});

/** A sent offer and the link mailed to the candidate (the mail links to the page). */
async function sentOffer(terms = "Includes a joining bonus of ₹1,50,000 <recoverable within 12 months>.") {
  const c = await recruitingCompany(t, { company: "Acme & Sons" });
  const { offer, candidate } = await draftOffer(c.hr.agent, { job_title: "Senior Backend Engineer", salary: "2800000.00", terms });
  await api(c.hr.agent)
    .op("sendJobOffer", { params: { id: offer.id } })
    .expect(200);
  const [mail] = await t.query<{ text_body: string }>(
    "SELECT text_body FROM email_outbox WHERE to_address = $1 AND text_body LIKE '%/api/public/offers/%' ORDER BY created_at DESC LIMIT 1",
    [candidate.email.toLowerCase()],
  );
  const link = /Offer link: (\S+)/.exec(mail.text_body)?.[1] as string;
  return { c, offer, link, path: new URL(link).pathname };
}

describe("getPublicOfferPage: the offer link opens a readable page", () => {
  it("the mailed offer link is the page: details, the PDF link and the two answers, escaped", async () => {
    const { path: page } = await sentOffer();
    expect(page).toMatch(/^\/api\/public\/offers\/[A-Za-z0-9_-]+\/page$/);
    const res = await t.request().get(page).expect(200);
    expect(res.headers["content-type"]).toMatch(/^text\/html; charset=utf-8/i);
    const html = res.text;
    expect(html).toContain('<html lang="en">');
    expect(html).toContain("<h1>Your offer: Senior Backend Engineer</h1>");
    expect(html).toContain("Acme &amp; Sons");
    expect(html).toContain("INR 28,00,000.00");
    expect(html).toContain("&lt;recoverable within 12 months&gt;"); // what the company wrote is text, never markup
    expect(html).toContain(`href="${page.replace(/\/page$/, "/pdf")}"`);
    expect(html).toContain(`data-action="${page.replace(/\/page$/, "/accept")}"`);
    expect(html).toContain(`data-action="${page.replace(/\/page$/, "/decline")}"`);
    expect(html).toContain('<script src="/assets/public-link.js" defer></script>');
    expect(html).not.toMatch(/<script>(?!<\/script>)/); // no inline script (the CSP allows none)
    const script = await t.request().get("/assets/public-link.js").expect(200);
    expect(script.headers["content-type"]).toMatch(/^text\/javascript/);
    expect(script.text).toContain("data-action");
  });

  it("acceptPublicOffer: the page's Accept button's operation accepts; the page then says so, without buttons", async () => {
    const { c, offer, path: page } = await sentOffer();
    const html = (await t.request().get(page).expect(200)).text;
    const accept = /data-action="([^"]+\/accept)"/.exec(html)?.[1] as string;
    // what the script sends: a same-origin JSON POST
    const answer = await fetch(`${base}${accept}`, {
      method: "POST",
      headers: { origin: base, "content-type": "application/json" },
      body: "{}",
    });
    expect(answer.status).toBe(200);
    const after = (await t.request().get(page).expect(200)).text;
    expect(after).toContain("Accepted");
    expect(after).not.toContain("data-action");
    const mine = await api(c.hr.agent)
      .op("getJobOffer", { params: { id: offer.id } })
      .expect(200);
    expect(mine.body.data.status).toBe("accepted");
  });

  it("an unknown or expired link is the error envelope (404, 410)", async () => {
    const r = await api(t.request()).op("getPublicOfferPage", { params: { token: "NoSuchTokenNoSuchTokenNoSuch" } });
    expectError(r, 404, "not_found");
  });

  it("renders in headless Chromium with its script", async () => {
    expect(chromium, "no Chromium installed: make unit installs it (scripts/support/ensure-chromium.sh)").toBeTruthy();
    const { path: page } = await sentOffer();
    const profile = mkdtempSync(path.join(tmpdir(), "hrms-chromium-"));
    try {
      const { stdout } = await promisify(execFile)(
        chromium!,
        [
          "--headless",
          "--no-sandbox",
          "--disable-gpu",
          "--no-first-run",
          "--disable-background-networking",
          `--user-data-dir=${profile}`,
          "--virtual-time-budget=5000",
          "--dump-dom",
          `${base}${page}`,
        ],
        { timeout: 300_000, maxBuffer: 16 * 1024 * 1024 },
      );
      expect(stdout).toContain("Your offer: Senior Backend Engineer");
      expect(stdout).toContain("Accept the offer");
      expect(stdout).toContain("Download the offer letter (PDF)");
      expect(stdout).toMatch(/<html[^>]* data-actions="ready"/); // its script loaded under the CSP and ran
      // the company's privacy notice, fetched by the script (getPublicPrivacyNotice with the offer's token)
      expect(stdout).toContain("How Acme &amp; Sons handles your personal data");
      expect(stdout).toContain("We process your personal data to employ you (or to consider your application)");
      expect(stdout).toContain("<li>Considering your application for a job</li>");
    } finally {
      rmSync(profile, { recursive: true, force: true });
    }
  });
});

describe("getPublicAppointmentPage: the appointment link opens a readable page", () => {
  it("shows the appointment, the PDF link and the joining documents still expected", async () => {
    const { c, offer, path: page } = await sentOffer();
    await t
      .request()
      .post(page.replace(/\/page$/, "/accept"))
      .expect(200);
    await api(c.hr.agent)
      .op("sendAppointmentLetter", { params: { id: offer.id } })
      .expect(200);
    const [mail] = await t.query<{ text_body: string }>(
      "SELECT text_body FROM email_outbox WHERE text_body LIKE '%Appointment link: %' ORDER BY created_at DESC LIMIT 1",
    );
    const link = new URL(/Appointment link: (\S+)/.exec(mail.text_body)?.[1] as string).pathname;
    expect(link).toMatch(/^\/api\/public\/appointment\/[A-Za-z0-9_-]+\/page$/);
    const res = await t.request().get(link).expect(200);
    expect(res.headers["content-type"]).toMatch(/^text\/html/);
    expect(res.text).toContain("<h1>Your appointment: Senior Backend Engineer</h1>");
    expect(res.text).toContain("Download the appointment letter (PDF)");
    expect(res.text).toContain("Identity proof");
    // the joining date in words with its year (a month ahead: at the year's end, next year's)
    const inWords = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" });
    expect(res.text).toContain(`<dt>Joining date</dt><dd>${inWords.format(new Date(`${offer.joining_date}T00:00:00Z`))}</dd>`);
    // uploadAppointmentDocument: the page's form, as the browser sends it
    const upload = /data-upload="([^"]+)"/.exec(res.text)?.[1] as string;
    expect(upload).toBe(link.replace(/\/page$/, "/upload"));
    expect(res.text).toContain('<label for="file">');
    await t
      .request()
      .post(upload)
      .field("document_type", "id_proof")
      .field("title", "Aadhaar card")
      .attach("file", Buffer.from("%PDF-1.4\n%demo\n"), { filename: "aadhaar.pdf", contentType: "application/pdf" })
      .expect(201);
    const after = (await t.request().get(link).expect(200)).text;
    expect(after).toContain("<li>Identity proof: Aadhaar card</li>");
  });
});
