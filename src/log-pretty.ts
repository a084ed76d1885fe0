// LOG_FORMAT=pretty: each JSON log line as one short line for a developer's terminal
// (`03:06:14.101 200 GET /api/employees 12.4 ms  user=2f1c… tenant=9a0b…`). No dependency: pino writes
// JSON to this destination, which formats it.
import { writeSync } from "node:fs";

const LEVELS: Record<number, string> = { 10: "TRACE", 20: "DEBUG", 30: "INFO", 40: "WARN", 50: "ERROR", 60: "FATAL" };
const COLOURS: Record<number, string> = { 10: "90", 20: "90", 30: "32", 40: "33", 50: "31", 60: "35" };
/** Fields every line has that say nothing to a developer at a terminal. */
const HIDDEN = new Set(["level", "time", "msg", "service", "pid", "hostname"]);

const short = (id: unknown) => (typeof id === "string" && id.length > 12 ? `${id.slice(0, 8)}…` : String(id));

function value(v: unknown): string {
  if (typeof v === "string") return /\s/.test(v) ? JSON.stringify(v) : v;
  if (Array.isArray(v) && v.length > 5) return `[${v.length} items]`;
  return JSON.stringify(v);
}

/** One JSON log line as the pretty line (a line that is not JSON passes unchanged). */
export function prettyLine(line: string, colour = !process.env.NO_COLOR): string {
  let o: Record<string, unknown>;
  try {
    o = JSON.parse(line);
  } catch {
    return line;
  }
  const level = typeof o.level === "number" ? o.level : 30;
  const time = typeof o.time === "string" ? o.time.slice(11, 23) : new Date(Number(o.time ?? 0)).toISOString().slice(11, 23);
  const paint = (code: string | undefined, s: string) => (colour && code ? `\x1b[${code}m${s}\x1b[0m` : s);
  if (o.msg === "request" && typeof o.status === "number") {
    const who = [o.user_id && `user=${short(o.user_id)}`, o.tenant_id && `tenant=${short(o.tenant_id)}`].filter(Boolean).join(" ");
    const status = paint(o.status >= 500 ? "31" : o.status >= 400 ? "33" : "32", String(o.status));
    const op = o.operation_id ? ` ${paint("36", String(o.operation_id))}` : "";
    return `${time} ${status} ${o.method} ${o.path}${op} ${o.ms} ms${who ? `  ${who}` : ""}  ${paint("90", `req=${short(o.request_id)}`)}`;
  }
  let stack = "";
  const fields: string[] = [];
  for (const [k, v] of Object.entries(o)) {
    if (HIDDEN.has(k)) continue;
    if (k === "err" && v && typeof v === "object") {
      const err = v as { message?: string; stack?: string };
      fields.push(`err=${value(err.message)}`);
      if (err.stack) stack = `\n${err.stack.replace(/^/gm, "    ")}`;
      continue;
    }
    fields.push(`${k}=${k === "request_id" ? short(v) : value(v)}`);
  }
  const name = paint(COLOURS[level], (LEVELS[level] ?? String(level)).padEnd(5));
  return `${time} ${name} ${o.msg ?? ""}${fields.length ? `  ${fields.join(" ")}` : ""}${stack}`;
}

/** A synchronous pino destination writing the pretty lines to `fd` (stdout). */
export function prettyDestination(fd = 1): { write(chunk: string): void } {
  return {
    write(chunk: string) {
      const out = chunk
        .split("\n")
        .filter(Boolean)
        .map((l) => prettyLine(l))
        .join("\n");
      writeSync(fd, `${out}\n`);
    },
  };
}
