// If-Match on a write of one resource (x-if-match), checked against the answer of its path's GET
// (readOperation) in the write's own transaction (src/http/conditional.ts).
import { handlers } from "../../../generated/handlers.ts";
import type { OperationId } from "../../../generated/registry.ts";
import { conditionally } from "../conditional.ts";
import type { HandlerContext } from "../types.ts";
import type { Feature } from "./feature.ts";

export const ifMatch: Feature = {
  name: "if-match",
  applies: (op) => op.ifMatch !== null && op.readOperation !== null && !op.isPublic,
  wrap(call, next) {
    if (!call.auth) return next();
    const readId = call.op.readOperation!;
    const read = handlers[readId] as (c: HandlerContext<OperationId>) => Promise<any>;
    const readCtx = { ...call.ctx, operationId: readId, query: {}, body: undefined, files: [] } as unknown as HandlerContext<OperationId>;
    return conditionally(call.req, call.res, call.auth, { required: call.op.ifMatch === "required", read: () => read(readCtx) }, next);
  },
};
