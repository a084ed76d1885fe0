// Summarises a V8 CPU profile (`--cpu-prof`, e.g. from `BENCH_PROFILE=cpu npx tsx scripts/measure/bench.ts`):
// the top frames by self time, and the time of every sample whose stack passes through each part of
// the request path (inclusive: a part that calls another counts that too), per request when the
// number of requests is given.
//   npx tsx scripts/measure/profile-summary.ts <file.cpuprofile> [requests] [top] [from s] [to s]
// `from`/`to`: only the samples between these seconds of the profile (the bench prints where each
// scenario's measured turns start and end in the server's life), leaving start-up and sign-ups out.
import { existsSync, readFileSync } from "node:fs";
import { SourceMap } from "node:module";
import path from "node:path";

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}
interface Profile {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

/** Parts of the request path, each recognised by a frame of its source file (and function, where given). */
const PARTS: [string, RegExp][] = [
  [
    "request id, log line, metrics (requestIdAndLog)",
    /src\/http\/middleware\.ts:requestIdAndLog|src\/log\.ts|pino|src\/platform\/metrics\.ts|prom-client/,
  ],
  ["  of which: the log line (pino)", /src\/log\.ts|pino/],
  ["  of which: the metrics histogram (prom-client)", /src\/platform\/metrics\.ts|prom-client/],
  ["admission control", /src\/http\/admission\.ts/],
  ["security headers", /src\/http\/middleware\.ts:securityHeaders/],
  ["routing (resolveOperation)", /src\/http\/routing\.ts/],
  ["session and identity (cookie, cache, store)", /src\/platform\/identity\/|express-session|connect-pg-simple/],
  ["rate-limit counting", /src\/http\/rate-limit\.ts|src\/platform\/limits\.ts/],
  ["authorization (guards)", /src\/http\/guards\.ts|src\/http\/operation\.ts:authorize/],
  ["request validation (express-openapi-validator, ajv)", /express-openapi-validator|\/ajv\/|src\/http\/validation\.ts/],
  ["tenancy (withTenant, AsyncLocalStorage)", /src\/db\/tenancy\.ts/],
  ["cursor parameters", /src\/http\/cursor\.ts|src\/http\/features\/cursor\.ts/],
  ["idempotency", /src\/http\/idempotency\.ts|src\/platform\/idempotency\.ts/],
  ["ETag (conditional)", /src\/http\/conditional\.ts|src\/http\/features\/etag\.ts/],
  ["read replica routing", /src\/http\/read-routing\.ts/],
  ["mail kick", /src\/platform\/mail\//],
  ["handler (modules)", /src\/modules\//],
  ["Prisma (client, adapter, wasm compiler)", /@prisma|generated\/prisma|wasm:/],
  ["pg driver", /node_modules\/pg\/|pg-protocol|pg-pool/],
  ["envelope and JSON reply", /src\/http\/envelope\.ts/],
  ["node:http (parse, write)", /node:_http|node:http|_http_/],
  ["net and streams", /node:net|node:internal\/stream|node:stream/],
  ["garbage collection", /^\(garbage collector\)/],
  ["idle / program", /^\((idle|program)\)/],
];

/**
 * The bundle's frames by their TypeScript source: each url's source map (`<file>.map`, or
 * PROFILE_MAP for the bundle when it has been rebuilt since: e.g. .data/bench-before/dist/main.js.map).
 */
const maps = new Map<string, SourceMap | null>();
function mapped(n: Node): Node {
  const { url, lineNumber, columnNumber } = n.callFrame;
  if (!/\/dist\/(main|server)\.js$/.test(url)) return n;
  let map = maps.get(url);
  if (map === undefined) {
    const file = process.env.PROFILE_MAP || `${url.replace(/^file:\/\//, "")}.map`;
    map = existsSync(file) ? new SourceMap(JSON.parse(readFileSync(file, "utf8"))) : null;
    maps.set(url, map);
  }
  const entry = map?.findEntry(lineNumber, columnNumber);
  if (!entry || !("originalSource" in entry)) return n;
  const source = entry.originalSource.replace(/^.*?\/(src|generated)\//, "$1/");
  return { ...n, callFrame: { ...n.callFrame, url: source, lineNumber: entry.originalLine } };
}

/** A frame's place: our source file, the package (node_modules/<name>), node's internals, or V8's (GC, idle). */
function fileOf(n: Node): string {
  const url = n.callFrame.url.replace(/^file:\/\//, "");
  if (!url) return n.callFrame.functionName.startsWith("(") ? n.callFrame.functionName : "(native: syscalls, builtins)";
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return `node_modules/${pkg[1]}`;
  if (url.startsWith("node:")) return "node: internals (http, net, streams...)";
  return url.replace(/^.*?\/(src|generated|dist)\//, "$1/");
}

function frameKey(n: Node): string {
  const { functionName, url, lineNumber } = n.callFrame;
  const file = url ? url.replace(/^file:\/\//, "").replace(/^.*\/(node_modules\/|src\/|generated\/|dist\/)/, "$1") : "";
  return file ? `${functionName || "(anonymous)"} ${file}:${lineNumber + 1}` : functionName;
}
/** What the PARTS patterns are matched against: the file and function of a frame. */
function matchText(n: Node): string {
  const { functionName, url } = n.callFrame;
  const file = url.replace(/^file:\/\//, "");
  return file ? `${file}:${functionName}` : functionName;
}

function main() {
  const [file, requestsArg, topArg, fromArg, toArg] = process.argv.slice(2);
  const [from, to] = [Number(fromArg ?? 0) * 1e6, toArg ? Number(toArg) * 1e6 : Number.POSITIVE_INFINITY];
  if (!file) throw new Error("usage: profile-summary.ts <file.cpuprofile> [requests] [top]");
  const p = JSON.parse(readFileSync(file, "utf8")) as Profile;
  const requests = Number(requestsArg ?? 0);
  const top = Number(topArg ?? 30);
  const byId = new Map(p.nodes.map((n) => [n.id, mapped(n)]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map<string, number>();
  // self time by where the code is: a file of ours, a package, or node's internals
  const selfByFile = new Map<string, number>();
  const parts = new Map<string, number>();
  // the stacks of each leaf, once: which parts it passes through
  const partsOfLeaf = new Map<number, string[]>();
  let total = 0;
  let busy = 0;
  let at = 0;
  for (let i = 0; i < p.samples.length; i++) {
    at += p.timeDeltas[i];
    if (at < from || at > to) continue;
    const dt = (p.timeDeltas[i + 1] ?? 0) / 1000; // ms: a sample lasts until the next
    const leaf = p.samples[i];
    const n = byId.get(leaf)!;
    total += dt;
    if (!/^\((idle|program)\)$/.test(n.callFrame.functionName)) busy += dt;
    self.set(frameKey(n), (self.get(frameKey(n)) ?? 0) + dt);
    const where = fileOf(n);
    selfByFile.set(where, (selfByFile.get(where) ?? 0) + dt);
    let names = partsOfLeaf.get(leaf);
    if (!names) {
      const texts: string[] = [];
      for (let id: number | undefined = leaf; id !== undefined; id = parent.get(id)) texts.push(matchText(byId.get(id)!));
      names = PARTS.filter(([, re]) => texts.some((t) => re.test(t))).map(([name]) => name);
      partsOfLeaf.set(leaf, names);
    }
    for (const name of names) parts.set(name, (parts.get(name) ?? 0) + dt);
  }
  const per = (ms: number) => (requests ? `${((ms * 1000) / requests).toFixed(1)} µs/req` : "");
  const pct = (ms: number) => `${((ms / busy) * 100).toFixed(1)} %`;
  console.log(
    `${path.basename(file)}: ${(total / 1000).toFixed(1)} s profiled, ${(busy / 1000).toFixed(1)} s busy` +
      `${requests ? `, ${requests} requests` : ""}\n`,
  );
  console.log("Parts of the request path (inclusive: every sample whose stack passes through it), % of busy time");
  console.log("| part | ms | % busy | per request |\n|---|---:|---:|---:|");
  for (const [name] of PARTS) {
    const ms = parts.get(name) ?? 0;
    if (ms > 0) console.log(`| ${name} | ${ms.toFixed(0)} | ${pct(ms)} | ${per(ms)} |`);
  }
  console.log(`\nSelf time by file (ours), package or node's internals\n| where | self ms | % busy | per request |\n|---|---:|---:|---:|`);
  for (const [k, ms] of [...selfByFile].sort((a, b) => b[1] - a[1]).slice(0, top))
    console.log(`| ${k} | ${ms.toFixed(0)} | ${pct(ms)} | ${per(ms)} |`);
  console.log(`\nTop ${top} frames by self time\n| frame | self ms | % busy |\n|---|---:|---:|`);
  for (const [k, ms] of [...self].sort((a, b) => b[1] - a[1]).slice(0, top))
    console.log(`| ${k.replaceAll("|", "\\|")} | ${ms.toFixed(0)} | ${pct(ms)} |`);
}
main();
