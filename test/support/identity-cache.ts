// The identity cache (src/platform/identity/identity-cache.ts) as a test file's app uses it, and
// settled(): waiting until it has heard of every write so far.
import { expect } from "vitest";
import { withConfig } from "../../src/config.ts";
import { databaseUrl } from "../../src/db/client.ts";
import { IDENTITY_CHANNEL, identityCache } from "../../src/platform/identity/identity-cache.ts";
import type { TestContext } from "./app.ts";
import { eventually } from "./eventually.ts";

/** The process's identity cache as the file's app uses it (its TTL). */
export const appIdentityCache = (t: TestContext) => withConfig(t.config, () => identityCache(databaseUrl()))!;

/**
 * Until the notifications of every write so far have reached the cache: a NOTIFY of an earlier write
 * (a sign-in's session row, a new member) arrives asynchronously, and on a busy machine it can land
 * between the two reads of a measurement and rightly empty the cache. Notifications arrive in commit
 * order, so once the one sent now has been heard, all earlier ones have. It waits for that one by its
 * payload: any change of the cache's token would also be an earlier write's notification, and this
 * one would then arrive during the measurement.
 */
let settles = 0;
export async function settled(t: TestContext): Promise<void> {
  const cache = appIdentityCache(t);
  await cache.ready();
  const mark = `settled-${++settles}`;
  await t.query(`SELECT pg_notify($1, $2)`, [IDENTITY_CHANNEL, mark]);
  expect(await eventually(async () => cache.lastHeard === mark)).toBe(true);
}
