// A real SMTP server on loopback that collects what the service sends.
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

export interface ReceivedMail {
  from: string;
  to: string[];
  /** The message as sent (headers, MIME parts, transfer encodings). */
  raw: string;
  /** The decoded subject line. */
  subject: string;
  /** What a reader sees: the decoded text of every text part, one after another. */
  text: string;
}

export interface MailSink {
  url: string;
  messages: ReceivedMail[];
  /** Waits until a message for `to` (whose text matches `text`, when given) arrives and returns it. */
  waitFor: (to: string, timeoutMs?: number, text?: RegExp) => Promise<ReceivedMail>;
  /** Refuses every message until `accept()` (delivery failures). */
  refuse: () => void;
  accept: () => void;
  close: () => Promise<void>;
}

/** Starts the sink (on `port`, e.g. the one of a sink that was closed to simulate an outage). */
export async function startMailSink(port = 0): Promise<MailSink> {
  const messages: ReceivedMail[] = [];
  let refusing = false;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        if (refusing) return callback(Object.assign(new Error("mailbox unavailable"), { responseCode: 451 }));
        messages.push({
          from: session.envelope.mailFrom ? (session.envelope.mailFrom as { address: string }).address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          ...parsed(Buffer.concat(chunks).toString("utf8")),
        });
        callback();
      });
    },
  });
  // a client that goes away mid-session (a server process killed while it sends) resets its
  // connection: that is the client's end, not the sink's - without a listener the 'error' event
  // would end the process that runs the sink (and a proof with it, leaving its servers running)
  server.on("error", (err: NodeJS.ErrnoException) => {
    if (err.code === "ECONNRESET" || err.code === "EPIPE" || err.code === "ETIMEDOUT") return;
    console.error(`mail sink: ${err.message}`);
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", () => resolve()));
  const bound = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${bound}?tls=off`,
    messages,
    async waitFor(to, timeoutMs = 120_000, text) {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const m = messages.find((x) => x.to.includes(to.toLowerCase()) && (!text || text.test(x.text)));
        if (m) return m;
        if (Date.now() > until) throw new Error(`no mail for ${to} within ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    refuse: () => {
      refusing = true;
    },
    accept: () => {
      refusing = false;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The first mail for `to` carrying a "<label>: <token>" line, and that token. */
export async function tokenMailed(sink: MailSink, to: string, label: string): Promise<string> {
  return tokenFrom(await sink.waitFor(to, undefined, new RegExp(`${label}: `)), label);
}

/** The token from a mail body ("...token: <token>" line). */
export function tokenFrom(mail: ReceivedMail, label: string): string {
  const m = new RegExp(`${label}: ([A-Za-z0-9_-]+)`).exec(mail.text);
  if (!m) throw new Error(`no "${label}" in mail:\n${mail.text}`);
  return m[1];
}

function parsed(raw: string): { raw: string; subject: string; text: string } {
  return { raw, subject: decodeWords(headerOf(headOf(raw), "Subject")), text: textOf(raw) };
}

/** The header block of a MIME entity, folded lines joined. */
const headOf = (entity: string) => entity.slice(0, /\r?\n\r?\n|$/.exec(entity)!.index).replace(/\r?\n[ \t]+/g, " ");
const headerOf = (head: string, name: string) => new RegExp(`^${name}:[ \t]*(.*)$`, "im").exec(head)?.[1].trim() ?? "";

/** Quoted-printable: "=" ends a folded line, "=XX" is a byte; decoded as percent-escapes so that
 * multi-byte UTF-8 sequences come out whole. `q` is the encoded-word variant ("_" is a space). */
function decodeQp(s: string, q = false): string {
  const escaped = s
    .replace(/%/g, "%25")
    .replace(/=\r?\n/g, "")
    .replace(/=([0-9A-F]{2})/gi, "%$1");
  return decodeURIComponent(q ? escaped.replace(/_/g, " ") : escaped);
}

/** RFC 2047 encoded words (=?UTF-8?Q?...?= / =?UTF-8?B?...?=); whitespace between two of them goes. */
function decodeWords(s: string): string {
  return s
    .replace(/(\?=)\s+(=\?)/g, "$1$2")
    .replace(/=\?[^?]+\?([QB])\?([^?]*)\?=/gi, (_, enc: string, text: string) =>
      enc.toUpperCase() === "B" ? Buffer.from(text, "base64").toString("utf8") : decodeQp(text, true),
    );
}

/** Decodes a MIME entity: multipart entities part by part, text parts by their transfer encoding
 * (quoted-printable folds long lines with "=" and escapes bytes as "=XX"), other parts left out. */
function textOf(entity: string): string {
  const split = /\r?\n\r?\n/.exec(entity);
  const head = headOf(entity);
  const body = split ? entity.slice(split.index + split[0].length) : "";
  const header = (name: string) => headerOf(head, name);
  const type = header("Content-Type").toLowerCase() || "text/plain";
  if (type.startsWith("multipart/")) {
    const boundary = /boundary="?([^";]+)"?/i.exec(header("Content-Type"))?.[1];
    if (!boundary) return "";
    return body
      .split(`--${boundary}`)
      .slice(1, -1)
      .map((part) => textOf(part.replace(/^\r?\n/, "")))
      .filter(Boolean)
      .join("\n");
  }
  if (!type.startsWith("text/")) return "";
  const encoding = header("Content-Transfer-Encoding").toLowerCase();
  if (encoding === "quoted-printable") return decodeQp(body);
  if (encoding === "base64") return Buffer.from(body, "base64").toString("utf8");
  return body;
}
