// Email is never sent inside a request: `queueEmail` writes an outbox row with the client of the
// caller's transaction (so the mail exists if and only if the change committed); the job worker
// (src/jobs) delivers it with retries.
import { jobs } from "../jobs/queue.ts";

export interface EmailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

type OutboxClient = { emailOutbox: { create: (args: any) => Promise<{ id: string }> } };

export async function queueEmail(client: OutboxClient, msg: EmailMessage): Promise<string> {
  const row = await client.emailOutbox.create({ data: { to_address: msg.to, subject: msg.subject, text_body: msg.text, html_body: msg.html ?? null } });
  return row.id;
}

/** Call after the transaction that queued mail has committed: delivers without waiting for the sweep. */
export function kickMailer(): void {
  jobs.kick("mail.deliver");
}
