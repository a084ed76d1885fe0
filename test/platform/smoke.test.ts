import { describe, expect, it } from "vitest";
import { expectError, signupTenant, useTestApp } from "../support/app.ts";
import * as clock from "../../src/lib/clock.ts";
import { api } from "../support/api.ts";

const t = useTestApp();

describe("getHealth, getServerTime: smoke", () => {
  it("health and server time are public", async () => {
    const h = await api(t.request()).op("getHealth").expect(200);
    expect(h.body.data).toMatchObject({ status: "ok", database: "up" });
    const st = await api(t.request()).op("getServerTime").expect(200);
    expect(Math.abs(st.body.data.epoch_ms - clock.nowMs())).toBeLessThan(5000); // the server's clock (src/lib/clock.ts)
  });

  it("signup signs in and the session works", async () => {
    const o = await signupTenant(t);
    const s = await api(o.agent).op("getSession").expect(200);
    expect(s.body.data.role).toBe("owner");
    expect(s.body.data.modules).toEqual([]);
    const settings = await api(o.agent).op("getCompanySettings").expect(200);
    expect(settings.body.data.id).toBe(o.tenantId);
  });

  it("no session is a 401 envelope", async () => {
    expectError(await api(t.request()).op("listNotifications"), 401, "unauthenticated");
  });
});
