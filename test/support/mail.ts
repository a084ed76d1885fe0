// A real SMTP server on loopback that collects what the service sends.
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
}

export interface MailSink {
  url: string;
  messages: ReceivedMail[];
  /** Waits until a message for `to` arrives and returns it. */
  waitFor: (to: string, timeoutMs?: number) => Promise<ReceivedMail>;
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
        messages.push({ from: session.envelope.mailFrom ? (session.envelope.mailFrom as { address: string }).address : "", to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString("utf8") });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", () => resolve()));
  const bound = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${bound}?tls=off`,
    messages,
    async waitFor(to, timeoutMs = 15000) {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const m = messages.find((x) => x.to.includes(to.toLowerCase()));
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

/** The token from a mail body ("...token: <token>" line). */
export function tokenFrom(mail: ReceivedMail, label: string): string {
  const text = mail.raw.replace(/=\r?\n/g, "").replace(/=3D/g, "=");
  const m = new RegExp(`${label}: ([A-Za-z0-9_-]+)`).exec(text);
  if (!m) throw new Error(`no "${label}" in mail:\n${text}`);
  return m[1];
}
