// After a write the caller's next reads wait for the replica to have it (src/http/read-routing.ts).
import { rememberWrite } from "../read-routing.ts";
import { STATE_CHANGING } from "../routing.ts";
import type { Feature } from "./feature.ts";

export const readYourWrites: Feature = {
  name: "read-your-writes",
  applies: (op) => STATE_CHANGING.has(op.method),
  async wrap(call, next) {
    const answer = await next();
    await rememberWrite(call.res);
    return answer;
  },
};
