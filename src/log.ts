// Structured JSON logs. Every line written while a request is being served carries its request
// id (AsyncLocalStorage). Passwords, tokens and cookies are redacted.
import { AsyncLocalStorage } from "node:async_hooks";
import { pino } from "pino";
import { config } from "./config.ts";

export interface RequestInfo {
  requestId: string;
  ip?: string;
  userId?: string;
  email?: string;
}
export const requestContext = new AsyncLocalStorage<RequestInfo>();

export const logger = pino({
  level: config.logLevel,
  base: { service: "hrms-api" },
  timestamp: pino.stdTimeFunctions.isoTime,
  redact: {
    paths: ["password", "*.password", "token", "*.token", "cookie", "*.cookie", "headers.cookie", "headers.authorization", "*.headers.cookie", 'headers["set-cookie"]', "password_hash", "*.password_hash"],
    censor: "[redacted]",
  },
  mixin() {
    const ctx = requestContext.getStore();
    return ctx ? { request_id: ctx.requestId } : {};
  },
});
