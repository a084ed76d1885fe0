// Summarises a V8 heap snapshot (`--heapsnapshot-signal=SIGUSR2` and `kill -USR2 <pid>`, e.g. with
// `BENCH_NODE_FLAGS=--heapsnapshot-signal=SIGUSR2` of scripts/measure/bench.ts): the heap's size, and
// the largest groups of objects by their own size (node type and constructor or name), to compare
// a server at idle with one under load.
//   npx tsx scripts/measure/heap-summary.ts <file.heapsnapshot> [top]
import { readFileSync } from "node:fs";
import path from "node:path";

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]] } };
  nodes: number[];
  strings: string[];
}

function main() {
  const [file, topArg] = process.argv.slice(2);
  if (!file) throw new Error("usage: heap-summary.ts <file.heapsnapshot> [top]");
  const s = JSON.parse(readFileSync(file, "utf8")) as Snapshot;
  const fields = s.snapshot.meta.node_fields;
  const types = s.snapshot.meta.node_types[0];
  const [TYPE, NAME, SIZE] = ["type", "name", "self_size"].map((f) => fields.indexOf(f));
  const groups = new Map<string, { bytes: number; count: number }>();
  let total = 0;
  for (let i = 0; i < s.nodes.length; i += fields.length) {
    const type = types[s.nodes[i + TYPE]];
    const name = s.strings[s.nodes[i + NAME]];
    const bytes = s.nodes[i + SIZE];
    total += bytes;
    // strings and code by their kind, objects by their constructor
    const key = type === "object" || type === "native" || type === "closure" ? `${type} ${name.slice(0, 60)}` : type;
    const g = groups.get(key) ?? { bytes: 0, count: 0 };
    g.bytes += bytes;
    g.count++;
    groups.set(key, g);
  }
  const mb = (b: number) => (b / 1048576).toFixed(1);
  console.log(`${path.basename(file)}: ${mb(total)} MB in ${s.nodes.length / fields.length} objects\n`);
  console.log("| group (node type, constructor) | MB | objects |\n|---|---:|---:|");
  for (const [k, g] of [...groups].sort((a, b) => b[1].bytes - a[1].bytes).slice(0, Number(topArg ?? 25)))
    console.log(`| ${k.replaceAll("|", "\\|")} | ${mb(g.bytes)} | ${g.count} |`);
}
main();
