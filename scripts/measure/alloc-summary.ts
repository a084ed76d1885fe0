// Ranks a V8 sampling heap profile (`scripts/measure/alloc-probe.cjs`, or `--heap-prof`): the frames that
// allocated the most by their own allocations, and by everything allocated below them (inclusive); the
// bundle's frames named by their TypeScript source (dist/server.js.map, or PROFILE_MAP).
//   npx tsx scripts/measure/alloc-summary.ts <file.heapprofile> [requests] [top]
// With `requests` (the bench's "ours served N requests"), also kB per request. The profile covers the
// process's life: measure one query (BENCH_ONLY) so that its turns dominate it.
import { existsSync, readFileSync } from "node:fs";
import { SourceMap } from "node:module";

interface Frame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: Frame;
  children?: ProfileNode[];
}
interface HeapProfile {
  head: ProfileNode;
  samples: { size: number; nodeId: number }[];
}

const maps = new Map<string, SourceMap | null>();
/** `function file:line`, the bundle's frames by their source. */
function frameName({ functionName, url, lineNumber, columnNumber }: Frame): string {
  let file = url.replace(/^file:\/\//, "");
  let line = lineNumber;
  if (/\/dist\/(main|server)\.js$/.test(file)) {
    let map = maps.get(file);
    if (map === undefined) {
      const mapFile = process.env.PROFILE_MAP || `${file}.map`;
      map = existsSync(mapFile) ? new SourceMap(JSON.parse(readFileSync(mapFile, "utf8"))) : null;
      maps.set(file, map);
    }
    const entry = map?.findEntry(lineNumber, columnNumber);
    if (entry && "originalSource" in entry) [file, line] = [entry.originalSource, entry.originalLine];
  }
  file = file.replace(/^.*\/(node_modules\/|src\/|generated\/)/, "$1");
  return file ? `${functionName || "(anonymous)"} ${file}:${line + 1}` : functionName || "(anonymous)";
}

function main() {
  const [file, requestsArg, topArg] = process.argv.slice(2);
  if (!file) throw new Error("usage: alloc-summary.ts <file.heapprofile> [requests] [top]");
  const profile = JSON.parse(readFileSync(file, "utf8")) as HeapProfile;
  const requests = Number(requestsArg ?? 0);
  const top = Number(topArg ?? 30);
  // each node's stack of frame names, root first
  const stacks = new Map<number, string[]>();
  const walk = (n: ProfileNode, above: string[]) => {
    const stack = [...above, frameName(n.callFrame)];
    stacks.set(n.id, stack);
    for (const c of n.children ?? []) walk(c, stack);
  };
  walk(profile.head, []);
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let total = 0;
  for (const { size, nodeId } of profile.samples) {
    const stack = stacks.get(nodeId) ?? [];
    total += size;
    const leaf = stack[stack.length - 1];
    self.set(leaf, (self.get(leaf) ?? 0) + size);
    for (const f of new Set(stack.slice(1))) inclusive.set(f, (inclusive.get(f) ?? 0) + size);
  }
  const mb = (b: number) => (b / 1048576).toFixed(1);
  const per = (b: number) => (requests ? ` | ${(b / 1024 / requests).toFixed(2)}` : "");
  const head = requests ? " | kB/req" : "";
  console.log(`${file}: ${mb(total)} MB sampled${requests ? `, ${requests} requests` : ""}\n`);
  for (const [title, table] of [
    ["own allocations", self],
    ["inclusive (allocated below the frame)", inclusive],
  ] as const) {
    console.log(`Top ${top} frames by ${title}\n| frame | MB${head} |\n|---|---:${requests ? "|---:" : ""}|`);
    for (const [k, b] of [...table].sort((a, b2) => b2[1] - a[1]).slice(0, top))
      console.log(`| ${k.replaceAll("|", "\\|")} | ${mb(b)}${per(b)} |`);
    console.log("");
  }
}
main();
