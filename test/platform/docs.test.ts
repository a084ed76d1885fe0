// /openapi.json serves the bundle; /docs renders the interactive reference (src/http/docs-page.ts) in
// a real headless Chromium with assets from node_modules only (no network): signing in explained
// where it starts, each operation's roles, module and scope, list filters not pre-filled, a filter
// box, collapsed by default, curl snippets that work as copied. `make unit` installs Debian's
// `chromium` where it is missing (scripts/support/ensure-chromium.sh), so the Chromium part never skips.
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import vm from "node:vm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accessLine, DOCS_SCRIPT } from "../../src/http/docs-page.ts";
import { signupTenant, useTestApp } from "../support/app.ts";
import { api } from "../support/api.ts";
import { asArray, asObject, at, documentOperationsOf } from "../support/document.ts";

const t = useTestApp();
const chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"].find((p) => existsSync(p));
let server: Server;
let base: string;

beforeAll(async () => {
  server = t.app.listen(0, "127.0.0.1");
  await new Promise((r) => server.once("listening", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

async function dumpDom(url: string): Promise<string> {
  const profile = mkdtempSync(path.join(tmpdir(), "hrms-chromium-"));
  try {
    const { stdout } = await promisify(execFile)(
      chromium!,
      [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        `--user-data-dir=${profile}`,
        "--virtual-time-budget=15000",
        "--dump-dom",
        url,
      ],
      { timeout: 300_000, maxBuffer: 64 * 1024 * 1024 },
    );
    return stdout;
  } finally {
    rmSync(profile, { recursive: true, force: true });
  }
}

describe("API reference", () => {
  it("serves the bundled document at /openapi.json", async () => {
    const res = await t.request().get("/openapi.json").expect(200);
    expect(res.body.openapi).toBe("3.1.0");
    expect(res.body.paths["/api/auth/sign-in"].post.operationId).toBe("signIn");
  });

  it("serves the Swagger UI assets locally, collapsed, with a filter box and snippets", async () => {
    const html = await t.request().get("/docs/").expect(200);
    expect(html.text).toContain("swagger-ui");
    expect(html.text).not.toMatch(/https?:\/\/(cdn|unpkg|fonts)\./);
    expect(html.text).toContain("<script src='./hrms-docs.js'></script>");
    await t.request().get("/docs/swagger-ui-bundle.js").expect(200);
    await t
      .request()
      .get("/docs/hrms-docs.js")
      .expect(200)
      .expect("content-type", /javascript/);
    const init = (await t.request().get("/docs/swagger-ui-init.js").expect(200)).text;
    expect(init).toContain('"docExpansion": "none"');
    expect(init).toContain('"filter": true');
    expect(init).toContain('"requestSnippetsEnabled": true');
    expect(init).toContain('"url": "/docs/reference.json"');
  });

  it("starts with signing in: the page, the bearer credential in Authorize, curl with a cookie jar", async () => {
    const doc = (await t.request().get("/docs/reference.json").expect(200)).body;
    const start = doc.info.description.split("## Conventions")[0];
    expect(start).toMatch(/^## Start here: signing in/);
    expect(start).toContain("POST /api/auth/sign-in");
    expect(start).toContain("*Authorize* → `apiCredential`");
    expect(start).toContain("-b cookies.txt -c cookies.txt");
    expect(start).toContain("*Authorize* → `oauth2`");
    expect(Object.keys(doc.components.securitySchemes)).toEqual(["sessionCookie", "apiCredential", "oauth2", "oauthClient"]);
    // without `make seed`'s demo, signIn's example is the README walkthrough's account (its own company)
    expect(doc.paths["/api/auth/sign-in"].post.requestBody.content["application/json"].example.email).toBe("priya@ramandesign.example");
  });

  it("Authorize → oauth2: a token from the tokenUrl as Swagger UI asks for it calls the API", async () => {
    const doc = (await t.request().get("/docs/reference.json").expect(200)).body;
    const flow = doc.components.securitySchemes.oauth2.flows.clientCredentials;
    // the tokenUrl is the token endpoint of this document, and every scope an operation needs is offered with words
    expect(doc.paths[flow.tokenUrl].post.operationId).toBe("issueOAuthToken");
    const needed = new Set<string>();
    for (const { op } of documentOperationsOf(doc)) if (typeof op["x-scope"] === "string") needed.add(op["x-scope"]);
    expect(Object.keys(flow.scopes).sort()).toEqual([...needed].sort());
    for (const [scope, words] of Object.entries<string>(flow.scopes)) expect(words.length, scope).toBeGreaterThan(10);
    const owner = await signupTenant(t);
    const issued = await api(owner.agent)
      .op("createApiCredential", { body: { name: "Docs page", role: "hr", scopes: ["employees:read"] } })
      .expect(201);
    const { credential, secret } = issued.body.data as { credential: { prefix: string }; secret: string };
    // Swagger UI's request: Basic client authentication, a form body with the ticked scopes, from the page's origin
    const token = await t
      .request()
      .post(flow.tokenUrl)
      .set(
        "Authorization",
        `Basic ${Buffer.from(`${encodeURIComponent(credential.prefix)}:${encodeURIComponent(secret)}`).toString("base64")}`,
      )
      .type("form")
      .send({ grant_type: "client_credentials", scope: "employees:read" })
      .expect(200);
    await api(t.request())
      .op("listEmployees", { headers: { Authorization: `Bearer ${token.body.access_token}` } })
      .expect(200);
  });

  it("states each operation's roles, module and scope, or that it is public", async () => {
    const doc = (await t.request().get("/docs/reference.json").expect(200)).body;
    expect(doc.paths["/api/payroll/draft-runs/{id}/employees/{employeeId}/pdf"].get.description).toMatch(
      new RegExp(
        "^\\*\\*Access:\\*\\* roles `owner`, `admin`, `hr` · module `payroll` \\(403 `module_disabled` while the company has it off\\) · " +
          "API credential scope `payroll:read`\\.\n\n",
      ),
    );
    expect(doc.paths["/api/auth/sign-in"].post.description).toMatch(/^\*\*Access:\*\* public - no sign-in needed\.\n\n/);
    expect(doc.paths["/api/integrations/credentials"].post.description).toMatch(/session only \(no API credential\)/);
    for (const { path: p, method: m, op } of documentOperationsOf(doc)) expect(op.description, `${m} ${p}`).toMatch(/^\*\*Access:\*\* /);
    // /openapi.json, what clients generate from, stays as the bundle is
    const served = (await t.request().get("/openapi.json").expect(200)).body;
    expect(served.paths["/api/auth/sign-in"].post.description).not.toMatch(/Access:/);
    expect(accessLine({ "x-roles": ["hr"] })).toBe("**Access:** roles `hr` · session only (no API credential).");
  });

  it("leaves list filters empty (their example in words), required query parameters as they are", async () => {
    const doc = (await t.request().get("/docs/reference.json").expect(200)).body;
    const served = (await t.request().get("/openapi.json").expect(200)).body;
    type Parameter = { name: string; description?: string; example?: unknown; schema: { example?: unknown } };
    const search = (d: { paths: Record<string, { get: { parameters: Parameter[] } }> }): Parameter => {
      const found = d.paths["/api/employees"].get.parameters.find((p) => p.name === "search");
      if (!found) throw new Error("listEmployees declares no search parameter");
      return found;
    };
    expect(search(served).example ?? search(served).schema.example).toBe("sharma");
    expect(search(doc).example).toBeUndefined();
    expect(search(doc).schema.example).toBeUndefined();
    expect(search(doc).description).toMatch(/Example: `sharma`\.$/);
    for (const { path: p, op } of documentOperationsOf(doc))
      for (const param of asArray(op.parameters).map(asObject))
        if (param.in === "query" && !param.required) {
          expect(param.example, `${p} ${param.name}`).toBeUndefined();
          expect(asObject(param.schema).example, `${p} ${param.name}`).toBeUndefined();
        }
    for (const [name, param] of Object.entries(asObject(at(doc, "components", "parameters"))).map(([n, x]) => [n, asObject(x)] as const))
      if (param.in === "query" && !param.required) expect(asObject(param.schema).example, name).toBeUndefined();
  });

  it("renders collapsed in headless Chromium, an operation's access and the filter box", async () => {
    expect(chromium, "no Chromium installed: make unit installs it (scripts/support/ensure-chromium.sh)").toBeTruthy();
    const collapsed = await dumpDom(`${base}/docs/`);
    expect(collapsed).toContain("HRMS API");
    expect(collapsed).toContain("Start here: signing in");
    expect(collapsed).toContain("What to do next");
    // the conventions one click away: a closed <details> the page keeps (not escaped as text)
    expect(collapsed).toMatch(/<details>\s*<summary><strong>Conventions<\/strong>/);
    expect(collapsed).not.toContain("&lt;details&gt;");
    expect(collapsed).toContain("operation-filter-input");
    expect(collapsed).toContain("Authorize");
    // collapsed: the tags are listed, no operation is open
    expect(collapsed).toContain('id="operations-tag-auth"');
    expect(collapsed).not.toContain("opblock-body");
    // a deep link opens one operation: its summary and its access line
    const open = await dumpDom(`${base}/docs/#/auth/signIn`);
    expect(open).toContain("opblock");
    expect(open).toContain("Sign in with email and password");
    expect(open).toMatch(/<strong>Access:<\/strong> public - no sign-in needed\./);
  });
});

// The page's curl snippets, produced by Swagger UI's own generator (swagger-ui-dist's bundle, loaded
// here in Node) through the page's plugin (DOCS_SCRIPT), run with the real curl against this server.
describe("API reference: curl snippets work as copied", () => {
  const require = createRequire(import.meta.url);
  const bundle = require("swagger-ui-dist/swagger-ui-es-bundle.js");
  const window: Record<string, any> = { SwaggerUIBundle: bundle.default ?? bundle };
  vm.runInNewContext(DOCS_SCRIPT, { window, Object, Array, String });
  const curlBash: (req: unknown) => string = window.hrmsDocs.curlBash;
  /** A request as Swagger UI hands it to the snippet generators (`get` of an Immutable map). */
  const request = (method: string, url: string, headers: Record<string, string>, body?: unknown) => {
    const fields: Record<string, unknown> = {
      method,
      url: base + url,
      headers: new Map(Object.entries(headers)),
      body: body === undefined ? undefined : JSON.stringify(body, null, 2),
    };
    return { get: (key: string) => fields[key] };
  };
  const dir = mkdtempSync(path.join(tmpdir(), "hrms-curl-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const run = async (cmd: string) => {
    const { stdout } = await promisify(execFile)("bash", ["-c", cmd], { cwd: dir });
    return stdout ? JSON.parse(stdout) : undefined;
  };
  const json = { accept: "application/json", "Content-Type": "application/json" };

  it("signIn's command keeps the session in cookies.txt; the next commands use it; a bodiless POST sends no form", async () => {
    const owner = await signupTenant(t);
    const signIn = curlBash(request("POST", "/api/auth/sign-in", json, { email: owner.email, password: owner.password }));
    expect(signIn).toMatch(/^curl -b cookies\.txt -c cookies\.txt -X 'POST' \\\n {2}'http:/);
    expect((await run(signIn)).data.user.email).toBe(owner.email.toLowerCase());

    const list = curlBash(request("GET", "/api/employees?limit=5", { accept: "application/json" }));
    expect((await run(list)).message).toBe("OK");

    // Swagger UI writes `-d ''` for a POST without a body: curl would send it as a form (a 415 here)
    const signOut = curlBash(request("POST", "/api/auth/sign-out", { accept: "application/json" }));
    expect(signOut).not.toContain("-d ''");
    expect((await run(signOut)).message).toMatch(/sign/i);
    expect((await run(list)).code).toBe("unauthenticated");
  });

  it("a command with the bearer credential of Authorize carries it and no cookie jar", async () => {
    const owner = await signupTenant(t);
    const created = await api(owner.agent)
      .op("createApiCredential", { body: { name: "Docs", scopes: ["employees:read"] } })
      .expect(201);
    const cmd = curlBash(
      request("GET", "/api/employees?limit=5", { accept: "application/json", Authorization: `Bearer ${created.body.data.secret}` }),
    );
    expect(cmd).not.toContain("cookies.txt");
    expect((await run(cmd)).message).toBe("OK");
  });
});
