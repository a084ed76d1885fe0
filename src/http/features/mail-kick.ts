// Mail the operation queued is delivered once it has finished (src/platform/mail/outbox.ts).
import { deliverQueuedMail } from "../../platform/mail/outbox.ts";
import type { Feature } from "./feature.ts";

export const mailKick: Feature = {
  name: "mail-kick",
  applies: () => true,
  wrap: (_call, next) => deliverQueuedMail(next),
};
