// Delivery of outbox rows through nodemailer, each claimed with a lease (claimDue: no transaction spans the
// SMTP send); failures retried with backoff, never dropped. A sent row's `secrets` become "[redacted]".
import nodemailer, { type Transporter } from "nodemailer";
import { config } from "../../config.ts";
import { getPool } from "../../db/client.ts";
import { claimDue, type WorkTable } from "../../db/primitives.ts";
import { logger } from "../../log.ts";
import { recordMailFailed, recordMailSent } from "../metrics.ts";

let transport: Transporter | undefined;
let transportUrl: string | undefined;

function transporter(smtpUrl: string): Transporter {
  if (!transport || transportUrl !== smtpUrl) {
    const u = new URL(smtpUrl);
    const secure = u.protocol === "smtps:";
    transport = nodemailer.createTransport({
      host: u.hostname,
      port: Number(u.port || (secure ? 465 : 587)),
      secure,
      auth: u.username ? { user: decodeURIComponent(u.username), pass: decodeURIComponent(u.password) } : undefined,
      ignoreTLS: u.searchParams.get("tls") === "off",
      connectionTimeout: 5000,
      greetingTimeout: 5000,
      socketTimeout: 10000,
    });
    transportUrl = smtpUrl;
  }
  return transport;
}

const MAX_BACKOFF_S = 30 * 60;

/** `text` with every occurrence of each secret (longest first) replaced by "[redacted]". */
export function redacted(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of [...secrets].sort((a, b) => b.length - a.length)) if (s) out = out.split(s).join("[redacted]");
  return out;
}

/** The outbox as a work table: the lease outlasts a send, so the claiming transaction ends before SMTP starts. */
const OUTBOX: WorkTable = {
  table: "email_outbox",
  due: "status = 'pending'",
  leaseColumn: "next_attempt_at",
  order: "created_at",
  returning: "w.id, w.to_address, w.subject, w.text_body, w.html_body, w.secrets, w.attempts, w.created_at",
};
const LEASE_S = 120;

interface OutboxRow {
  id: string;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string | null;
  secrets: string[] | null;
  attempts: number;
  created_at: Date;
}

/** Delivers due pending rows (at most `limit`); returns how many were sent. */
export async function deliverDueEmails(smtpUrl = config().smtpUrl, limit = 20): Promise<number> {
  if (!smtpUrl) return 0;
  let sent = 0;
  for (let i = 0; i < limit; i++) {
    const [row] = await claimDue<OutboxRow>(OUTBOX, { limit: 1, leaseS: LEASE_S });
    if (!row) break;
    if (!(await deliver(smtpUrl, row))) break; // the server is probably down: stop this round, retry later
    sent++;
  }
  return sent;
}

/** Sends one claimed row and records the outcome; false when the send failed (retried with backoff). */
async function deliver(smtpUrl: string, row: OutboxRow): Promise<boolean> {
  let messageId: string | null;
  try {
    const info = await transporter(smtpUrl).sendMail({
      from: config().mailFrom,
      to: row.to_address,
      subject: row.subject,
      text: row.text_body,
      html: row.html_body ?? undefined,
    });
    messageId = info?.messageId ?? null;
  } catch (err) {
    const attempts = row.attempts + 1;
    const backoff = Math.min(MAX_BACKOFF_S, 2 ** Math.min(attempts, 12));
    await getPool().query(
      `UPDATE email_outbox SET attempts = $2, last_error = $3, next_attempt_at = now() + make_interval(secs => $4) WHERE id = $1`,
      [row.id, attempts, String((err as Error).message).slice(0, 500), backoff],
    );
    recordMailFailed();
    logger.warn({ outbox_id: row.id, attempts, err: (err as Error).message }, "email delivery failed, will retry");
    return false;
  }
  const secrets = row.secrets ?? [];
  await getPool().query(
    `UPDATE email_outbox SET status = 'sent', sent_at = now(), attempts = attempts + 1, last_error = NULL,
            text_body = $2, html_body = $3, secrets = '{}', message_id = $4
      WHERE id = $1`,
    [row.id, redacted(row.text_body, secrets), row.html_body === null ? null : redacted(row.html_body, secrets), messageId],
  );
  recordMailSent((Date.now() - new Date(row.created_at).getTime()) / 1000); // machine time: the queue's lag, for the metrics
  return true;
}
