// A read the document marks x-read-replica may run on the read replica (src/http/read-routing.ts).
import { runRead } from "../read-routing.ts";
import type { Feature } from "./feature.ts";

export const readReplica: Feature = {
  name: "read-replica",
  applies: (op) => op.readReplica,
  wrap: (call, next) => runRead(call.req, call.res, next),
};
