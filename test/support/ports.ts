// A TCP port on 127.0.0.1 that is free right now (for servers a test or a script starts itself:
// the real server process, a baseline server). Throw-away PostgreSQL servers use
// startThrowawayServer (src/db/embedded.ts), which also tries again when a port is taken meanwhile.
export { freePort } from "../../src/db/embedded.ts";
