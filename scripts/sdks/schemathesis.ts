// Schemathesis (PyPI, tools/schemathesis/requirements.txt with hashes, installed on first use into
// .sdks/venv-schemathesis) against the live seeded server: generated/openapi.json's operations with
// its standard checks, once signed in by the session cookie and once by a bearer API credential, each
// with the examples, fuzzing and stateful phases (the stateful phase follows the document's OpenAPI
// links from each create to the operations on what it created).
//   quick (make test): a few cases per operation within a time budget;  deep (make sdks / verify): more.
// What is switched off or narrowed, and why: SCHEMATHESIS_EXCLUDED below and docs/testing.md.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { operationTable } from "../../generated/registry.ts";
import type { LiveServers } from "./live-server.ts";
import { ensureVenv, root, sh } from "./tools.ts";

export type SchemathesisMode = "quick" | "deep";

const CHECKS = [
  "not_a_server_error",
  "status_code_conformance",
  "content_type_conformance",
  "response_headers_conformance",
  "response_schema_conformance",
  "negative_data_rejection",
];

/**
 * Operations left out of the run, each because calling it with the run's own identity ends the run's
 * authentication or the company it tests (every later request would be a 401 and test nothing).
 */
export const SCHEMATHESIS_EXCLUDED: Record<string, string> = {
  signOut: "ends the session the cookie run is authenticated by",
  revokeApiCredential: "may revoke the bearer run's own credential",
  rotateApiCredential: "may rotate the bearer run's own credential (its old secret ends)",
};

/**
 * Left out of the cookie run only: a success starts a new session on the request's own (the session id
 * is rotated, as at every sign-in), so the cookie the run sends dies - the document's sign-in example is
 * the seeded owner's, and once it had run every later request of the cookie run was a 401. The bearer
 * run sends no cookie and covers them.
 */
export const COOKIE_RUN_EXCLUDED = Object.entries(operationTable)
  .filter(([, meta]) => meta.startsSession)
  .map(([id]) => id)
  .sort();

const SETTINGS: Record<SchemathesisMode, string[]> = {
  // the two identities run at once, one worker each: about 25 s of wall time beside the suite
  quick: ["--phases=examples,fuzzing,stateful", "--max-examples=2", "--max-time=20", "--workers=1"],
  deep: ["--phases=examples,coverage,fuzzing,stateful", "--max-examples=25", "--max-time=300", "--workers=1"],
};

async function signInCookie(base: string, email: string, password: string): Promise<string> {
  const r = await fetch(`${base}/api/auth/sign-in`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password }),
  });
  const cookie = r.headers.getSetCookie().find((c) => c.startsWith("hrms.sid="));
  if (r.status !== 200 || !cookie) throw new Error(`sign-in for Schemathesis: ${r.status}`);
  return cookie.split(";")[0];
}

/** Every scope the document names (x-scope): the bearer run's credential may call every operation. */
function allScopes(): string[] {
  const doc = JSON.parse(readFileSync(path.join(root, "generated", "openapi.json"), "utf8"));
  const scopes = new Set<string>();
  for (const item of Object.values<Record<string, { "x-scope"?: string }>>(doc.paths))
    for (const op of Object.values(item)) if (op && typeof op === "object" && op["x-scope"]) scopes.add(op["x-scope"]);
  return [...scopes].sort();
}

async function bearerSecret(base: string, cookie: string): Promise<string> {
  const r = await fetch(`${base}/api/integrations/credentials`, {
    method: "POST",
    headers: { "content-type": "application/json", cookie },
    body: JSON.stringify({ name: "Schemathesis", role: "admin", scopes: allScopes() }),
  });
  const body = (await r.json()) as { data: { secret: string } };
  if (r.status !== 201) throw new Error(`API credential for Schemathesis: ${r.status} ${JSON.stringify(body)}`);
  return body.data.secret;
}

export async function runSchemathesis(mode: SchemathesisMode, base: string, live: LiveServers, logs: string): Promise<string> {
  const venv = await ensureVenv("venv-schemathesis", "tools/schemathesis/requirements.txt");
  const cookie = await signInCookie(base, live.owner.email, live.owner.password);
  const secret = await bearerSecret(base, cookie);
  const runs = [
    ["cookie", `Cookie: ${cookie}`],
    ["bearer", `Authorization: Bearer ${secret}`],
  ].map(async ([name, header]) => {
    const args = [
      "run",
      path.join(root, "generated", "openapi.json"),
      `--url=${base}`,
      `--checks=${CHECKS.join(",")}`,
      ...SETTINGS[mode],
      "--seed=20261129",
      "--suppress-health-check=all",
      `--header=${header}`,
      ...[...Object.keys(SCHEMATHESIS_EXCLUDED), ...(name === "cookie" ? COOKIE_RUN_EXCLUDED : [])].map(
        (id) => `--exclude-operation-id=${id}`,
      ),
      "--report=junit",
      `--report-junit-path=${path.join(logs, `schemathesis-${name}.xml`)}`,
      "--output-sanitize=true",
    ];
    const { output } = await sh(path.join(venv, "bin", "schemathesis"), args, {
      cwd: path.join(root, ".sdks"), // its own cache folder (.schemathesis/) goes there
      env: { NO_COLOR: "1", SCHEMATHESIS_TELEMETRY: "false" },
    });
    writeFileSync(path.join(logs, `schemathesis-${name}.log`), output); // its summary: phases, coverage, warnings
    return `${name}: ${output.trim().split("\n").slice(-1)[0].replace(/=+/g, "").trim()}`;
  });
  return (await Promise.all(runs)).join("; ");
}
