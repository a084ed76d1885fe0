// `GET /dev/mail`: this instance's outbox for its developer (docs/getting-started.md, "Seeing the mail"),
// outside the API and its document. Only a request made on this machine gets it: a loopback socket is not
// enough (a local proxy, DNS rebinding), so the client address, no forwarding header and the Host must agree.
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

/** Headers a proxy adds for the client it forwards: their presence means the request is not this machine's own. */
const FORWARDING = ["forwarded", "x-forwarded-for", "x-forwarded-host", "x-forwarded-proto", "x-real-ip", "via"];
/** Host names of this machine, with an optional port. */
const LOOPBACK_HOST = /^(localhost|127\.0\.0\.1|\[::1\])(:\d{1,5})?$/i;

/** A request made on this machine, directly: loopback socket and client, no proxy, a loopback Host. */
export const isLocalRequest = (req: Request): boolean =>
  LOOPBACK.has(req.socket?.remoteAddress ?? "") &&
  LOOPBACK.has(req.ip ?? req.socket?.remoteAddress ?? "") &&
  FORWARDING.every((h) => req.headers?.[h] === undefined) &&
  LOOPBACK_HOST.test(req.headers?.host ?? "");

export const devMailPage: RequestHandler = async (req, res, next) => {
  if (!isLocalRequest(req)) return next(); // the 404 of every unknown path
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
