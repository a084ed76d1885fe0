// Offers expire: a sent offer whose last day (`expires_on`, in the company's time zone) has passed becomes
// `expired`, before offers are read or answered and hourly by the job `recruitment.expire-offers`.
import { audit } from "../../platform/audit.ts";
import { activeTenant, tenantsWith } from "../../db/central.ts";
import { db, tenantTx, withTenant } from "../../db/tenancy.ts";
import { addDays, parseDate, toDateString, todayIn } from "../../lib/dates.ts";
import { logger } from "../../log.ts";
import { notify } from "../../platform/notify.ts";
import { fullName } from "./common.ts";
import * as clock from "../../lib/clock.ts";

/**
 * Sent offers whose last day (`expires_on`, in the company's time zone) has passed become
 * `expired` - audited, the people who made them told. Run before offers are read or answered,
 * and hourly by the job `recruitment.expire-offers`.
 */
export async function expireDueOffers(today: string): Promise<number> {
  const due = await db.jobOffer.findMany({
    where: { status: "sent", deleted_at: null, expires_on: { lt: parseDate(today) } },
    select: { id: true },
  });
  let n = 0;
  for (const { id } of due) {
    const done = await tenantTx(async (tx) => {
      const claimed = await tx.jobOffer.updateMany({ where: { id, status: "sent" }, data: { status: "expired" } });
      if (claimed.count !== 1) return false;
      const o = await tx.jobOffer.findFirstOrThrow({
        where: { id },
        include: { candidate: { select: { first_name: true, last_name: true } } },
      });
      await audit(
        {
          action: "recruitment.offer_status_changed",
          event: "recruitment.offer_status_changed",
          entity_type: "job_offer",
          entity_id: id,
          changes: { status: { from: "sent", to: "expired" }, reason: `not answered by ${toDateString(o.expires_on)}` },
        },
        tx,
      );
      await notify(tx, {
        userId: o.created_by,
        kind: "recruitment.offer_expired",
        title: `Offer ${o.offer_number} to ${fullName(o.candidate)} expired unanswered`,
        link: `/api/recruitment/offers/${id}`,
      });
      return true;
    });
    if (done) n++;
  }
  return n;
}

export const EXPIRE_OFFERS_JOB = "recruitment.expire-offers";

/** The job: expires sent offers whose last day has passed in each company's time zone; each offer claimed. */
export async function expireOffersEverywhere(now = clock.now()): Promise<number> {
  // Companies with a sent offer whose last day is over somewhere on Earth (UTC+14 is the earliest).
  const horizon = parseDate(addDays(now.toISOString().slice(0, 10), 1));
  const due = await tenantsWith("jobOffer", { status: "sent", deleted_at: null, expires_on: { lt: horizon } });
  let total = 0;
  let failed = 0;
  for (const { tenant_id } of due) {
    try {
      total += await withTenant(tenant_id, async () => expireDueOffers(todayIn((await activeTenant({ timezone: true })).timezone, now)));
    } catch (err) {
      failed++;
      logger.error({ err: (err as Error).message, tenant_id }, "expiring offers failed");
    }
  }
  if (total) logger.info({ expired: total }, "offers expired");
  if (failed) throw new Error(`expiring offers failed for ${failed} tenant(s)`);
  return total;
}
