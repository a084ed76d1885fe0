// Text analysis for the offline AI helpers: years of experience, keywords, sentence splitting and
// small helpers of wording. Pure functions - the same text always gives the same result. The
// dictionary of skills and their matching: skills.ts.
import { skillAliases } from "./skills.ts";

// "5 years", "5+ yrs", "3-5 years", "3 to 5 years": the first number counts. Each optional token carries
// the whitespace before it, so no two `\s*` are adjacent: linear, where the old form was O(n²)-O(n³)
// (4 000 spaces after a digit froze the process for 16 s).
const YEARS_RE = /(\d{1,2}(?:\.\d)?)(?:\s*\+)?(?:\s*(?:-|to))?(?:\s*\d{1,2})?\s*(?:years?|yrs?)\b/gi;

/** Years of experience stated in a text: the smallest for requirements, the largest for a resume. */
export function extractYears(text: string, pick: "min" | "max"): number | null {
  const values = [...text.matchAll(YEARS_RE)].map((m) => Number(m[1])).filter((n) => n > 0 && n <= 50);
  if (!values.length) return null;
  return pick === "min" ? Math.min(...values) : Math.max(...values);
}

const STOP = new Set(
  (
    "a about above after again against all also am an and any are as at be because been before being below between both " +
    "but by can could did do does doing down during each etc every few for from further had has have having he her here " +
    "hers herself him himself his how i if in into is it its itself just least less like looking may me more most must " +
    "my myself need needs no nor not now of off on once only or other our ours ourselves out over own per plus preferred " +
    "required requirements responsibilities role same she should so some such than that the their theirs them themselves " +
    "then there these they this those through to too under until up us using very via was we were what when where which " +
    "while who whom why will with within work working would years year yrs you your yours yourself experience strong " +
    "good excellent great knowledge skills skill ability able understanding team candidate candidates job company ideal " +
    "including include includes etc minimum least nice bonus familiarity familiar hands-on proven solid deep"
  ).split(" "),
);

/** The most frequent meaningful words (ties alphabetical), excluding stop words and skill names. */
export function keywords(text: string, limit = 10, exclude: string[] = []): string[] {
  const counts = new Map<string, number>();
  const skip = new Set(exclude.flatMap((e) => [e, ...skillAliases(e)]).flatMap((e) => e.split(/[^a-z]+/)));
  for (const w of text.toLowerCase().match(/[a-z][a-z-]{2,}/g) ?? []) {
    const word = trimEndWhere(w, (c) => c === "-");
    if (STOP.has(word) || skip.has(word) || word.length < 3) continue;
    counts.set(word, (counts.get(word) ?? 0) + 1);
  }
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, limit)
    .map(([w]) => w);
}

const WS = /\s/;
/** `.replace(/[x]+$/, "")` in one pass from the end: that expression is O(n²) on a long run not at the end. */
export function trimEndWhere(s: string, drop: (c: string) => boolean): string {
  let end = s.length;
  while (end > 0 && drop(s[end - 1])) end--;
  return end === s.length ? s : s.slice(0, end);
}

/** Lines and sentences of free text, trimmed, without bullets or trailing full stops. */
export function sentences(text: string): string[] {
  return text
    .split(/\n|;|(?<=[.!?])\s+(?=[A-Z0-9])/)
    .map((s) => trimEndWhere(s.replace(/^\s*(?:[-*•·]|\d+[.)])\s*/, "").trim(), (c) => c === "." || WS.test(c)))
    .filter((s) => s.length > 2);
}

const NICE = /\b(nice to have|good to have|is a plus|are a plus|a plus|bonus|preferred|desirable|advantage|advantageous|ideally)\b/i;
export const isNiceToHave = (s: string) => NICE.test(s);

const DUTY_VERBS = new RegExp(
  "^(own|lead|mentor|manage|build|design|develop|maintain|drive|coordinate|deliver|support|prepare|handle|conduct|" +
    "review|collaborate|work with|partner|ensure|create|write|run|oversee|plan|implement|improve|analy[sz]e|report|" +
    "train|recruit|process|negotiate|sell|monitor|resolve)\\b",
  "i",
);
export const isDuty = (s: string) => DUTY_VERBS.test(s);

export const capitalize = (s: string) => (s ? s[0].toUpperCase() + s.slice(1) : s);

/** A small stable hash (FNV-1a) for deterministic choices. */
export function stableHash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

export function listText(items: string[]): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}
