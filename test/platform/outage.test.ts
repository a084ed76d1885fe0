// Database outage: requests answer 503 `unavailable` quickly, health reports it, and the
// service recovers by itself when the database returns - no restart.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import supertest from "supertest";
import { closeDb, initDb } from "../../src/db/client.ts";
import { createApp } from "../../src/http/app.ts";
import { expectError, signupTenant, useTestApp } from "../support/app.ts";
import { startDbProxy, type DbProxy } from "../support/proxy.ts";
import { api } from "../support/api.ts";

const t = useTestApp();
let proxy: DbProxy;

beforeAll(async () => {
  proxy = await startDbProxy(t.url);
  await closeDb();
  initDb(proxy.url, { max: 5 });
  t.app = createApp({ validateResponses: true });
  t.request = () => supertest.agent(t.app);
});
afterAll(async () => {
  await closeDb();
  await proxy.close();
  initDb(t.url); // let the shared afterAll close a live pool
});

describe("database outage", () => {
  it("answers 503 while the database is unreachable and recovers without a restart", async () => {
    const o = await signupTenant(t);
    await api(t.request()).op("getHealth").expect(200);
    await api(o.agent).op("getCompanySettings").expect(200);

    proxy.cut();
    const started = Date.now();
    const health = await api(t.request()).op("getHealth");
    expectError(health, 503, "unavailable");
    expectError(await api(o.agent).op("getCompanySettings"), 503, "unavailable");
    expectError(await api(t.request()).op("signIn", { body: { email: o.email, password: o.password } }), 503, "unavailable");
    expect(Date.now() - started).toBeLessThan(15_000);

    proxy.restore();
    await api(t.request()).op("getHealth").expect(200);
    const s = await api(o.agent).op("getCompanySettings").expect(200);
    expect(s.body.data.id).toBe(o.tenantId);
  });
});
