// Delivery of outbox rows through nodemailer (SMTP when SMTP_URL is set). Each row is locked
// while it is sent, so several workers never send one twice; failures are retried with backoff
// and never dropped.
import nodemailer, { type Transporter } from "nodemailer";
import { config } from "../../config.ts";
import { getPool } from "../../db/client.ts";
import { logger } from "../../log.ts";

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

/** Delivers due pending rows (at most `limit`); returns how many were sent. */
export async function deliverDueEmails(smtpUrl = config().smtpUrl, limit = 20): Promise<number> {
  if (!smtpUrl) return 0;
  let sent = 0;
  for (let i = 0; i < limit; i++) {
    const client = await getPool().connect();
    try {
      await client.query("BEGIN");
      const { rows } = await client.query(
        `SELECT id, to_address, subject, text_body, html_body, attempts FROM email_outbox
          WHERE status = 'pending' AND next_attempt_at <= now()
          ORDER BY created_at FOR UPDATE SKIP LOCKED LIMIT 1`,
      );
      if (!rows.length) {
        await client.query("COMMIT");
        break;
      }
      const row = rows[0];
      try {
        await transporter(smtpUrl).sendMail({
          from: config().mailFrom,
          to: row.to_address,
          subject: row.subject,
          text: row.text_body,
          html: row.html_body ?? undefined,
        });
        await client.query(
          `UPDATE email_outbox SET status = 'sent', sent_at = now(), attempts = attempts + 1, last_error = NULL WHERE id = $1`,
          [row.id],
        );
        sent++;
      } catch (err) {
        const attempts = row.attempts + 1;
        const backoff = Math.min(MAX_BACKOFF_S, 2 ** Math.min(attempts, 12));
        await client.query(
          `UPDATE email_outbox SET attempts = $2, last_error = $3, next_attempt_at = now() + make_interval(secs => $4) WHERE id = $1`,
          [row.id, attempts, String((err as Error).message).slice(0, 500), backoff],
        );
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
