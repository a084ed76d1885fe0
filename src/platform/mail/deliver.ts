// Delivery of outbox rows through nodemailer (SMTP when SMTP_URL is set). Each row is locked
// while it is sent, so several workers never send one twice; failures are retried with backoff
// and never dropped. A sent row keeps no live token: its `secrets` are replaced by "[redacted]"
// in both bodies (the rest stays for the record, with the SMTP Message-ID).
import nodemailer, { type Transporter } from "nodemailer";
import { config } from "../../config.ts";
import { getPool } from "../../db/client.ts";
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

/** Delivers due pending rows (at most `limit`); returns how many were sent. */
// size: claim, send and record each due mail with its retry schedule, in one loop
export async function deliverDueEmails(smtpUrl = config().smtpUrl, limit = 20): Promise<number> {
  if (!smtpUrl) return 0;
  let sent = 0;
  for (let i = 0; i < limit; i++) {
    const client = await getPool().connect();
    try {
      await client.query("BEGIN");
      const { rows } = await client.query(
        `SELECT id, to_address, subject, text_body, html_body, secrets, attempts, created_at FROM email_outbox
          WHERE status = 'pending' AND next_attempt_at <= now()
          ORDER BY created_at FOR UPDATE SKIP LOCKED LIMIT 1`,
      );
      if (!rows.length) {
        await client.query("COMMIT");
        break;
      }
      const row = rows[0];
      try {
        const info = await transporter(smtpUrl).sendMail({
          from: config().mailFrom,
          to: row.to_address,
          subject: row.subject,
          text: row.text_body,
          html: row.html_body ?? undefined,
        });
        const secrets: string[] = row.secrets ?? [];
        await client.query(
          `UPDATE email_outbox SET status = 'sent', sent_at = now(), attempts = attempts + 1, last_error = NULL,
                  text_body = $2, html_body = $3, secrets = '{}', message_id = $4
            WHERE id = $1`,
          [
            row.id,
            redacted(row.text_body, secrets),
            row.html_body === null ? null : redacted(row.html_body, secrets),
            info?.messageId ?? null,
          ],
        );
        sent++;
        recordMailSent((Date.now() - new Date(row.created_at).getTime()) / 1000);
      } catch (err) {
        const attempts = row.attempts + 1;
        const backoff = Math.min(MAX_BACKOFF_S, 2 ** Math.min(attempts, 12));
        await client.query(
          `UPDATE email_outbox SET attempts = $2, last_error = $3, next_attempt_at = now() + make_interval(secs => $4) WHERE id = $1`,
          [row.id, attempts, String((err as Error).message).slice(0, 500), backoff],
        );
        recordMailFailed();
        logger.warn({ outbox_id: row.id, attempts, err: (err as Error).message }, "email delivery failed, will retry");
        await client.query("COMMIT");
        break; // the server is probably down: stop this round, retry later
      }
      await client.query("COMMIT");
    } catch (err) {
      await client.query("ROLLBACK").catch(() => {});
      throw err;
    } finally {
      client.release();
    }
  }
  return sent;
}
