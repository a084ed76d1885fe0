// Leave area: configuration, allocations and balances, requests and approvals, encashment,
// holidays, work from home and working on holidays. The rules live in the sibling modules.
import type { AreaHandlers } from "../../http/types.ts";
import { allocationHandlers } from "./allocations.ts";
import { configHandlers } from "./config.ts";
import { otherRequestHandlers } from "./other-requests.ts";
import { requestHandlers } from "./requests.ts";

export const handlers = {
  ...configHandlers,
  ...allocationHandlers,
  ...requestHandlers,
  ...otherRequestHandlers,
} satisfies AreaHandlers<"leave">;
