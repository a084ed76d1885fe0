// `GET /dev/mail`: the outbox of this instance for its developer (`DEV_MAIL`, src/config.ts: on in
// development without `SMTP_URL`, never in production). Outside the API (`/api/...`) and its
// document, as `/docs` is: a page for a person at this machine, not an operation for clients. It
// answers only requests from a loopback address (everyone else gets the API's 404), lists every
// company's mail newest first (`?to=<address>` narrows it, `?limit=` up to 200), as HTML, or as
// JSON `{ data: [...] }` to `Accept: application/json`.
import type { Request, RequestHandler } from "express";
import { listOutbox, type OutboxMail } from "../platform/mail/dev-mail.ts";

const LOOPBACK = new Set(["127.0.0.1", "::1", "::ffff:127.0.0.1"]);

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] as string);

/** The text with its http(s) links clickable (the text is escaped first; a link ends at white space or a quote). */
const linked = (text: string) => escapeHtml(text).replace(/https?:\/\/[^\s"'<>]+/g, (url) => `<a href="${url}">${url}</a>`);

function page(mails: OutboxMail[], to: string | undefined): string {
  const items = mails
    .map(
      (m) => `<article>
  <h2>${escapeHtml(m.subject)}</h2>
  <p class="meta">To <strong>${escapeHtml(m.to)}</strong> · queued <time datetime="${m.created_at}">${m.created_at}</time> · ${m.status}</p>
  <pre>${linked(m.text)}</pre>
</article>`,
    )
    .join("\n");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Outbox - HRMS (development)</title>
<style>
body { font: 16px/1.5 system-ui, sans-serif; max-width: 60rem; margin: 2rem auto; padding: 0 1rem; color: #1a1a1a; }
article { border: 1px solid #ccc; border-radius: 6px; padding: 0 1rem; margin: 1rem 0; }
h2 { font-size: 1.1rem; } .meta { color: #444; } pre { white-space: pre-wrap; background: #f6f6f6; padding: .75rem; }
</style>
</head>
<body>
<main>
<h1>Outbox${to ? ` for ${escapeHtml(to)}` : ""}</h1>
<p>Mail this instance queued, newest first. No mail leaves without <code>SMTP_URL</code>; this page exists only outside
production (<code>DEV_MAIL</code>) and answers only on this machine.</p>
${items || "<p>No mail yet.</p>"}
</main>
</body>
</html>
`;
}

const isLoopback = (req: Request) => LOOPBACK.has(req.socket.remoteAddress ?? "");

export const devMailPage: RequestHandler = async (req, res, next) => {
  if (!isLoopback(req)) return next(); // the 404 of every unknown path
  try {
    const to = typeof req.query.to === "string" && req.query.to.length <= 254 ? req.query.to : undefined;
    const limit = typeof req.query.limit === "string" && /^\d{1,3}$/.test(req.query.limit) ? Number(req.query.limit) : undefined;
    const mails = await listOutbox({ to, limit });
    res.setHeader("Cache-Control", "no-store");
    if (req.accepts(["html", "json"]) === "json") return void res.json({ data: mails, message: "OK" });
    res.type("html").send(page(mails, to));
  } catch (err) {
    next(err);
  }
};
