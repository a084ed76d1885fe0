// The production values of the product limits, for the tests of each limit: the test processes run
// with limits no fixture reaches (test/support/test-env.ts), a limit's own test gives its app these.
import { type Limits, loadConfig } from "../../src/config.ts";

// every field of Limits, or this does not compile
const names: Record<keyof Limits, true> = {
  signinMaxFailuresPerAccount: true,
  signinMaxFailuresPerAccountAllClients: true,
  signinMaxFailuresPerIp: true,
  forgotPasswordMaxPerIp: true,
  uploadsMaxConcurrent: true,
  uploadsMaxConcurrentPerUser: true,
  uploadsPerUserPerHour: true,
  uploadsPerTenantPerHour: true,
  tenantStorageQuotaBytes: true,
  memberStorageSharePercent: true,
  aiCallsPerUserPerHour: true,
  aiCallsPerTenantPerHour: true,
  signupMaxPerIp: true,
  invitesPerTenantPerDay: true,
  invitesPerNewTenantPerDay: true,
  invitesPerUserPerHour: true,
  invitesPerAddressPerDay: true,
  invitesPerRecipientPerDay: true,
  rateLimitWindowSeconds: true,
  rateLimitPerTenant: true,
  rateLimitPerCaller: true,
  rateLimitPerIp: true,
  rateLimitSyncMs: true,
};

const production = loadConfig({ NODE_ENV: "production", SESSION_SECRET: "p".repeat(32), PUBLIC_URL: "https://hr.example.com" });

/** The production defaults of the product limits (src/config.ts, `Limits`), whatever the test environment sets. */
export const productionLimits: Limits = Object.freeze(
  Object.fromEntries(Object.keys(names).map((name) => [name, production[name as keyof Limits]])) as unknown as Limits,
);
