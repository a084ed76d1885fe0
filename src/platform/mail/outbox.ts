// Mail is never sent inside a request: `queueEmail` writes an outbox row in the caller's transaction (it
// exists if and only if the change committed); delivery is kicked once the operation or job has finished,
// and the minute's sweep delivers whatever else is due.
import { AsyncLocalStorage } from "node:async_hooks";
import { config } from "../../config.ts";
import { jobs } from "../jobs/queue.ts";
import { printQueuedMail } from "./dev-mail.ts";

const unitOfWork = new AsyncLocalStorage<{ queued: boolean; ids: string[]; kicks?: Set<string> }>();

/** Runs `work`; when it has finished and queued mail, kicks delivery (also when it failed: what committed goes). */
export async function deliverQueuedMail<T>(work: () => Promise<T>): Promise<T> {
  const scope: { queued: boolean; ids: string[]; kicks?: Set<string> } = { queued: false, ids: [] };
  try {
    return await unitOfWork.run(scope, work);
  } finally {
    if (scope.queued) kickMailer();
    for (const job of scope.kicks ?? []) jobs.kick(job);
    // DEV_MAIL: the mail that committed, printed as blocks (src/platform/mail/dev-mail.ts)
    if (scope.ids.length && config().devMail) await printQueuedMail(scope.ids);
  }
}

/**
 * Asks for the job `name` once the current operation or job has finished (its transactions
 * committed) - as for mail; at once outside of one. (Webhook deliveries of the events it wrote.)
 */
export function kickAfterWork(name: string): void {
  const scope = unitOfWork.getStore();
  if (!scope) {
    jobs.kick(name);
    return;
  }
  scope.kicks ??= new Set();
  scope.kicks.add(name);
}

export interface EmailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /**
   * The live tokens the mail carries (a reset or invitation token, a public link's token): the
   * outbox keeps them readable until the mail is sent, then replaces them by "[redacted]"
   * (deliver.ts), in the form given and URL-encoded.
   */
  secrets?: readonly string[];
}

type OutboxClient = { emailOutbox: { create: (args: any) => Promise<{ id: string }> } };

export async function queueEmail(client: OutboxClient, msg: EmailMessage): Promise<string> {
  const row = await client.emailOutbox.create({
    data: {
      to_address: msg.to,
      subject: msg.subject,
      text_body: msg.text,
      html_body: msg.html ?? null,
      secrets: [...new Set((msg.secrets ?? []).flatMap((s) => [s, encodeURIComponent(s)]))].filter(Boolean),
    },
  });
  const scope = unitOfWork.getStore();
  if (scope) {
    scope.queued = true;
    scope.ids.push(row.id);
  }
  return row.id;
}

/** Delivers without waiting for the sweep (deliverQueuedMail calls it; nothing else needs to). */
function kickMailer(): void {
  jobs.kick("mail.deliver");
}
