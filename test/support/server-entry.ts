// The arguments of node that start the server as production does (`npm start`: the build's entry,
// plain node), from the build the suite's setup made for this run (test/support/global-setup.ts).
import { inject } from "vitest";

export const serverArgs = (): string[] => [inject("serverEntry")];
