// Per-client limits key an IPv6 client on its /64: one host is routinely given
// a whole /64, so keyed on the full address it had 2^64 budgets. src/lib/ip.ts (clientKey) and
// every limit that counts per client IP: signups, reset requests, failed sign-ins (and, without a
// test of their own here, public uploads in progress and bodies arriving per client, which build
// their keys with the same function).
import { describe, expect, it } from "vitest";
import { clientKey, mappedIpv4Range, parseRange } from "../../src/lib/ip.ts";
import { appWith, expectError, uniqueEmail, useTestApp } from "../support/app.ts";

const t = useTestApp();
const PASSWORD = "granite-otter-lantern-94";

describe("clientKey", () => {
  it("keys IPv4 as itself, IPv4-mapped IPv6 as its IPv4 address and other IPv6 as its /64", () => {
    expect(clientKey("203.0.113.7")).toBe("203.0.113.7");
    expect(clientKey("::ffff:203.0.113.7")).toBe("203.0.113.7");
    expect(clientKey("::ffff:cb00:7107")).toBe("203.0.113.7");
    expect(clientKey("2001:db8:1:2::1")).toBe("2001:db8:1:2::/64");
    expect(clientKey("2001:0db8:0001:0002:ffff:ffff:ffff:ffff")).toBe("2001:db8:1:2::/64");
    expect(clientKey("2001:db8:1:2:a:b:c:d%eth0")).toBe("2001:db8:1:2::/64");
    expect(clientKey("2001:db8:1:3::1")).toBe("2001:db8:1:3::/64");
    expect(clientKey("::1")).toBe("0:0:0:0::/64");
    expect(clientKey(undefined)).toBe("unknown");
  });

  it("parses ranges and finds the IPv4 addresses an IPv6 range covers through mapping", () => {
    expect(parseRange("10.1.2.3/8")).toEqual({ family: 4, base: 10n << 24n, prefix: 8 });
    expect(parseRange("10.0.0.0/33")).toBeNull();
    expect(parseRange("2001:db8::/32")?.prefix).toBe(32);
    expect(mappedIpv4Range(parseRange("::ffff:0:0/96")!)).toEqual({ family: 4, base: 0n, prefix: 0 });
    expect(mappedIpv4Range(parseRange("::/64")!)).toEqual({ family: 4, base: 0n, prefix: 0 });
    expect(mappedIpv4Range(parseRange("::ffff:10.0.0.0/104")!)).toEqual({ family: 4, base: 10n << 24n, prefix: 8 });
    expect(mappedIpv4Range(parseRange("2001:db8::/32")!)).toBeNull();
  });
});

describe("signup, forgotPassword, signIn: an IPv6 client is counted per /64", () => {
  it("signup: the addresses of one /64 share SIGNUP_MAX_PER_IP; another /64 has its own", async () => {
    const app = appWith(t, { signupMaxPerIp: 2, trustProxy: 1 });
    const from = (ip: string) =>
      app
        .as(t.request())
        .post("/api/auth/signup")
        .set("X-Forwarded-For", ip)
        .send({ name: "Six", email: uniqueEmail("six"), password: PASSWORD });
    await from("2001:db8:28:15::1").expect(202);
    await from("2001:db8:28:15::2").expect(202);
    expectError(await from("2001:db8:28:15:dead:beef:0:3"), 429, "rate_limited");
    await from("2001:db8:28:16::1").expect(202);
  });

  it("forgotPassword: the addresses of one /64 share FORGOT_PASSWORD_MAX_PER_IP", async () => {
    const app = appWith(t, { forgotPasswordMaxPerIp: 2, trustProxy: 1 });
    const from = (ip: string) =>
      app
        .as(t.request())
        .post("/api/auth/forgot-password")
        .set("X-Forwarded-For", ip)
        .send({ email: uniqueEmail("who") });
    await from("2001:db8:28:25::1").expect(200);
    await from("2001:db8:28:25::2").expect(200);
    expectError(await from("2001:db8:28:25::3"), 429, "rate_limited");
    await from("2001:db8:28:26::1").expect(200);
  });

  it("signIn: failures from the addresses of one /64 share SIGNIN_MAX_FAILURES_PER_IP", async () => {
    const app = appWith(t, { signinMaxFailuresPerIp: 3, trustProxy: 1 });
    const from = (ip: string) =>
      app
        .as(t.request())
        .post("/api/auth/sign-in")
        .set("X-Forwarded-For", ip)
        .send({ email: uniqueEmail("nobody"), password: "not-the-password" });
    for (let i = 1; i <= 3; i++) expectError(await from(`2001:db8:28:35::${i}`), 401, "unauthenticated");
    expectError(await from("2001:db8:28:35::99"), 429, "rate_limited");
    expectError(await from("2001:db8:28:36::1"), 401, "unauthenticated");
  });
});
