import type { AreaHandlers } from "../../http/types.ts";

export const handlers = {} satisfies Partial<AreaHandlers<"leave">>;
