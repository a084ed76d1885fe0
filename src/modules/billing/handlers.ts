// Billing webhook. The handler passes the raw body and signature to one use case (webhook.ts).
import { ok } from "../../http/envelope.ts";
import type { AreaHandlers } from "../../http/types.ts";
import { receiveBillingEvent } from "./webhook.ts";

export const handlers = {
  async receiveBillingWebhook({ req }) {
    const raw = (req as unknown as { rawBody?: Buffer }).rawBody;
    const result = await receiveBillingEvent(raw, String(req.get("stripe-signature") ?? ""));
    return ok(result, result.duplicate ? "Event already processed" : "Event received");
  },
} satisfies Partial<AreaHandlers<"billing">>;
