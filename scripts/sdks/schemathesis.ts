// Schemathesis (PyPI, tools/schemathesis/requirements.txt with hashes, installed on first use into
// .sdks/venv-schemathesis) against the live seeded server: generated/openapi.json's operations with
// its standard checks, once signed in by the session cookie and once by a bearer API credential, each
// with the examples, fuzzing and stateful phases (the stateful phase follows the document's OpenAPI
// links from each create to the operations on what it created).
//   quick (make test): a few cases per operation within one time budget;  deep (make sdks / verify): each
//   phase with a budget of its own (STEPS), so all four run. The row of `make sdks` says what each ran.
// What is switched off or narrowed, and why: SCHEMATHESIS_EXCLUDED and CONFIG below, and docs/testing.md.
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
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

type Phase = "examples" | "coverage" | "fuzzing" | "stateful";

/** One invocation of Schemathesis: its phases, their time budget in seconds, cases per operation. */
interface Step {
  phases: Phase[];
  maxTime: number;
  maxExamples?: number;
}

/**
 * quick (make test): one invocation per identity, the examples phase with one case per example, bounded
 * by its work (the operations the document gives examples for: about 290 of 315 in 11 s alone), with a
 * time limit only as a hang guard. A time budget with fuzzing, as before, used whatever CPU the suite
 * beside it left and reached 120 to 300 operations depending on the machine's load. deep (make sdks):
 * a budget of its own for each phase, so that every phase runs however busy the machine is - one shared
 * `--max-time` was spent by the examples and coverage phases at load 20 to 50, and the fuzzing and
 * stateful phases never ran. Fuzzing and stateful testing repeat until their budget is spent
 * (Schemathesis's `--max-time`).
 */
export const STEPS: Record<SchemathesisMode, Step[]> = {
  quick: [{ phases: ["examples"], maxTime: 90, maxExamples: 1 }],
  // measured at load 25-30 (both identities at once): the examples of every operation in about 125 s
  // (at load 42, 200 of 315 operations in 180 s); the coverage phase's 2 100 cases reached 140 of 315
  // operations in 150 s, fuzzing 200 operations
  deep: [
    { phases: ["examples"], maxTime: 240 },
    { phases: ["coverage"], maxTime: 300 },
    { phases: ["fuzzing"], maxTime: 240, maxExamples: 25 },
    { phases: ["stateful"], maxTime: 150, maxExamples: 25 },
  ],
};

/**
 * The configuration file every invocation reads (written to .sdks/logs/schemathesis.toml): what the run
 * narrows, each with its reason (docs/testing.md lists them too).
 */
export const CONFIG = `# Written by scripts/sdks/schemathesis.ts: what the run narrows, and why (docs/testing.md).

[generation]
# Every request carries the run's own identity (-H: the session cookie, or the bearer credential), which
# replaces a security parameter Schemathesis generated: a case "without the hrms.sid cookie" of a
# session-only operation was sent with the run's cookie, answered 200, and counted as accepted invalid
# data. Requests without or with a wrong identity are proven by the role matrix of make test.
with-security-parameters = false

[checks.negative_data_rejection]
# Every 4xx refuses the request and changes nothing: a 413 for a body over the operation's limit, a 410
# for a link that has ended, a 412 for a stale If-Match, and so on (the defaults leave out 410, 412,
# 413, 414, 423, 431). Whether it is the right 4xx is status_code_conformance's check (it must be one
# the operation documents). 5xx stays in as in the defaults: not_a_server_error reports those.
expected-statuses = ["4xx", "5xx"]

[phases.stateful.inference]
# The stateful phase follows the document's own OpenAPI links (121). Schemathesis would add about 6 000
# links it infers (guessed from names and Location headers): in a budget of minutes they took the
# scenarios, and fewer of the document's links were followed (9 covered, against 16 with these off).
algorithms = []
`;

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

interface Report {
  stop_reason: string;
  operations: { selected: number; tested: number; skipped: number };
  phases: Record<Phase, { status: string; skip_reason: string | null }>;
  test_cases: { generated: number; unique_failures: number; errored: number };
  failures: { code: string; title: string; operations: string[] }[];
  errors: unknown[];
}

/** One invocation for one identity: its JSON report (read whether or not Schemathesis exited 0). */
async function invoke(venv: string, step: Step, name: string, args: string[], logs: string): Promise<Report & { links?: string }> {
  const label = `schemathesis-${name}-${step.phases.join("-")}`;
  const report = path.join(logs, `${label}.json`);
  rmSync(report, { force: true });
  const cli = [
    "-m",
    "schemathesis.cli", // through the venv's python: the venv's scripts name the folder it was made in
    `--config-file=${path.join(logs, "schemathesis.toml")}`,
    "run",
    ...args,
    `--phases=${step.phases.join(",")}`,
    `--max-time=${step.maxTime}`,
    ...(step.maxExamples ? [`--max-examples=${step.maxExamples}`] : []),
    "--report=junit,json",
    `--report-junit-path=${path.join(logs, `${label}.xml`)}`,
    `--report-json-path=${report}`,
  ];
  const env = { NO_COLOR: "1", SCHEMATHESIS_TELEMETRY: "false" };
  // its own cache folder (.schemathesis/) goes to .sdks
  const output = await sh(path.join(venv, "bin", "python"), cli, { cwd: path.join(root, ".sdks"), env }).then(
    (r) => r.output,
    (err: Error) => err.message, // failures exit 1: the report says what they were
  );
  writeFileSync(path.join(logs, `${label}.log`), output); // its summary: phases, coverage, warnings
  if (!existsSync(report)) throw new Error(`${label}: Schemathesis wrote no report:\n${output.slice(-3000)}`);
  // the links the stateful phase followed are in its summary only ("API Links: 16 covered / 121 selected")
  const links = /API Links:\s+(\d+) covered \/ (\d+) selected/.exec(output);
  return { ...(JSON.parse(readFileSync(report, "utf8")) as Report), links: links ? `${links[1]}/${links[2]} links` : undefined };
}

/** What a step ran, in words: each phase's cases, why it stopped, and its failures. */
function describeStep(step: Step, r: Report & { links?: string }, mode: SchemathesisMode): { text: string; problems: string[] } {
  const problems = r.failures.map((f) => `${f.code} ${f.title}: ${f.operations.join(", ")}`);
  if (r.errors.length || r.test_cases.errored) problems.push(`${r.errors.length || r.test_cases.errored} errors (see the log)`);
  const ran = step.phases.filter((p) => r.phases[p].status !== "skip");
  // deep: each phase has a budget of its own, so a phase that ran no case is a failure of the run
  if (mode === "deep" && (!ran.length || r.test_cases.generated === 0)) problems.push(`${step.phases.join(", ")}: no test case ran`);
  const stop = r.stop_reason === "max_time" ? ", time limit" : "";
  const ops = `${r.operations.tested}/${r.operations.selected} operations`;
  const phases = step.phases.map((p) => `${p}${r.phases[p].status === "skip" ? " (not run)" : ""}`).join("+");
  const links = r.links && step.phases.includes("stateful") ? `, ${r.links}` : "";
  return { text: `${phases} ${r.test_cases.generated} cases, ${ops}${links}${stop}`, problems };
}

export async function runSchemathesis(mode: SchemathesisMode, base: string, live: LiveServers, logs: string): Promise<string> {
  const venv = await ensureVenv("venv-schemathesis", "tools/schemathesis/requirements.txt");
  writeFileSync(path.join(logs, "schemathesis.toml"), CONFIG);
  const cookie = await signInCookie(base, live.owner.email, live.owner.password);
  const secret = await bearerSecret(base, cookie);
  const identities = [
    ["cookie", `Cookie: ${cookie}`],
    ["bearer", `Authorization: Bearer ${secret}`],
  ];
  const runs = identities.map(async ([name, header]) => {
    const args = [
      path.join(root, "generated", "openapi.json"),
      `--url=${base}`,
      `--checks=${CHECKS.join(",")}`,
      "--workers=1",
      "--seed=20261129",
      "--suppress-health-check=all",
      `--header=${header}`,
      ...[...Object.keys(SCHEMATHESIS_EXCLUDED), ...(name === "cookie" ? COOKIE_RUN_EXCLUDED : [])].map(
        (id) => `--exclude-operation-id=${id}`,
      ),
      "--output-sanitize=true",
    ];
    const parts: string[] = [];
    const problems: string[] = [];
    // one phase after another for each identity; the two identities at once
    for (const step of STEPS[mode]) {
      const d = describeStep(step, await invoke(venv, step, name, args, logs), mode);
      parts.push(d.text);
      problems.push(...d.problems.map((p) => `${name}: ${p}`));
    }
    return { summary: `${name}: ${parts.join("; ")}`, problems };
  });
  const done = await Promise.all(runs);
  const problems = done.flatMap((d) => d.problems);
  const summary = done.map((d) => d.summary).join("\n    ");
  if (problems.length) throw new Error(`${problems.join("\n")}\n    ${summary}\n(the logs: .sdks/logs/schemathesis-*)`);
  return `0 failures\n    ${summary}`;
}
