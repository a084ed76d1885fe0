// Mail a developer can see without SMTP (`DEV_MAIL`): printed once the change that queued it committed
// (a rolled-back mail is not in the table), and listed for `GET /dev/mail`.
import { getPool } from "../../db/client.ts";
import { logger } from "../../log.ts";

export interface OutboxMail {
  id: string;
  to: string;
  subject: string;
  text: string;
  status: string;
  created_at: string;
  sent_at: string | null;
}

const COLUMNS = `id, to_address AS "to", subject, text_body AS "text", status, created_at, sent_at`;

function json(row: Record<string, unknown>): OutboxMail {
  const iso = (v: unknown) => (v instanceof Date ? v.toISOString() : (v as string | null));
  return { ...(row as unknown as OutboxMail), created_at: iso(row.created_at) as string, sent_at: iso(row.sent_at) };
}

/** The instance's outbox, newest first (every company's mail: the page answers only on loopback, outside production). */
export async function listOutbox(opts: { limit?: number; to?: string } = {}): Promise<OutboxMail[]> {
  const limit = Math.min(Math.max(opts.limit ?? 50, 1), 200);
  const { rows } = opts.to
    ? // cross-tenant: the instance's outbox for its developer (DEV_MAIL)
      await getPool().query(`SELECT ${COLUMNS} FROM email_outbox WHERE to_address = $1 ORDER BY created_at DESC LIMIT $2`, [
        opts.to.toLowerCase(),
        limit,
      ])
    : // cross-tenant: the instance's outbox for its developer (DEV_MAIL)
      await getPool().query(`SELECT ${COLUMNS} FROM email_outbox ORDER BY created_at DESC LIMIT $1`, [limit]);
  return rows.map(json);
}

/** One mail as the log shows it. */
export function mailBlock(m: Pick<OutboxMail, "to" | "subject" | "text">): string {
  const rule = "─".repeat(72);
  const body = m.text.trimEnd();
  return `\n┌${rule}\n│ Mail (not sent: no SMTP_URL; all mail at /dev/mail)\n│ To:      ${m.to}\n│ Subject: ${m.subject}\n├${rule}\n${body
    .split("\n")
    .map((l) => `│ ${l}`)
    .join("\n")}\n└${rule}\n`;
}

/** Where the blocks go (standard output; a test may listen). */
let sink: (text: string) => void = (text) => process.stdout.write(text);
export function setDevMailSink(next: ((text: string) => void) | undefined): void {
  sink = next ?? ((text) => process.stdout.write(text));
}

/** Prints the committed mails among `ids` (see the header). Never throws: it only shows. */
export async function printQueuedMail(ids: readonly string[]): Promise<void> {
  if (!ids.length) return;
  try {
    // cross-tenant: the rows just queued by this unit of work, by id
    const { rows } = await getPool().query(`SELECT ${COLUMNS} FROM email_outbox WHERE id = ANY($1::uuid[]) ORDER BY created_at`, [ids]);
    for (const row of rows) sink(mailBlock(json(row)));
  } catch (err) {
    logger.warn({ err: (err as Error).message }, "could not print the queued mail");
  }
}
