// No request may freeze the event loop: the regular expressions applied to user text are linear.
// Each fixed expression is run on the pathological input it used to choke on (long runs of
// whitespace, dots or hyphens - as long as the document allows) and must give the right answer,
// and gives the same answers as the old expression on ordinary text. Two requests then send the
// longest allowed texts made of such runs while this process watches its own event loop
// (monitorEventLoopDelay: the app runs in this process, so a request that blocks the loop blocks
// the measurement's timer too).
//
// The bound there is deliberately generous (1 s): it only catches the freeze itself (the old
// years-of-experience pattern needed 16 s for one run of 4 000 spaces, and 143 s for the resume
// below; the old merge-field pattern 1.8 s for the template below), not the 100 ms target - that is measured
// against the real server, with production
// settings and the largest inputs of every CPU-heavy operation, by scripts/measure/event-loop.ts
// (`make verify`). Timing assertions tighter than this would make the suite flaky on a busy machine.
import { monitorEventLoopDelay } from "node:perf_hooks";
import { beforeAll, describe, expect, it } from "vitest";
import { parseFormula, variablesOf } from "../../src/modules/payroll/formula.ts";
import { withoutFence } from "../../src/modules/recruitment/ai/openai.ts";
import { extractYears, keywords, sentences } from "../../src/modules/recruitment/ai/text.ts";
import { fillTemplate, MERGE_FIELDS, unknownFields, type MergeField } from "../../src/modules/recruitment/letters.ts";
import { useTestApp } from "../support/app.ts";
import { binary, recruitingCompany, type Company } from "../recruitment/fixtures.ts";
import { api } from "../support/api.ts";

const spaces = (n: number) => " ".repeat(n);

// The old expressions, as references for ordinary (short) text only.
const OLD_YEARS_RE = /(\d{1,2}(?:\.\d)?)\s*\+?\s*(?:-|to)?\s*(?:\d{1,2}\s*)?(?:years?|yrs?)\b/gi;
const oldYears = (text: string) => [...text.matchAll(OLD_YEARS_RE)].map((m) => m[1]);
const OLD_FIELD_RE = /\{\{\s*([^{}]*?)\s*\}\}/g;
const oldSentences = (text: string) =>
  text
    .split(/\n|;|(?<=[.!?])\s+(?=[A-Z0-9])/)
    .map((s) =>
      s
        .replace(/^\s*(?:[-*•·]|\d+[.)])\s*/, "")
        .trim()
        .replace(/[.\s]+$/, ""),
    )
    .filter((s) => s.length > 2);

const ORDINARY = [
  "5+ years of backend development with TypeScript. Strong PostgreSQL.",
  "3-5 years in payroll; 2 to 4 yrs with Tally.\n- Mentor juniors.\n1) Own hiring.",
  "Backend engineer, 6 years. Led a team of 4.   Experience: 12 yrs ...  ",
  "7 + years, 10 -12 Years, 1.5 year, 2025 years, 123 years, 8years, 9 yr, 4 yrsx, 60 years",
  "  • Bullet one.  Bullet two! 3. Third?  4) fourth;  - fifth. ",
  "Kafka.   Redis . . .   Docker ... done",
  "5\t+\n\tyears and 3 \n to \n 6 \n years",
];

describe("linear regular expressions on user text: pathological input, right answer", () => {
  it("years of experience: runs of whitespace between the number, '+', 'to' and 'years'", () => {
    expect(extractYears(`5${spaces(99_998)}x`, "max")).toBeNull();
    expect(extractYears(`5${spaces(20_000)}years`, "max")).toBe(5);
    expect(extractYears(`7${spaces(20_000)}+${spaces(20_000)}to${spaces(20_000)}9${spaces(20_000)}yrs`, "min")).toBe(7);
    expect(extractYears(`${"3 ".repeat(40_000)}x 4 years`, "max")).toBe(4);
    // the same numbers as the old pattern on ordinary text
    for (const text of ORDINARY) {
      const nums = oldYears(text)
        .map(Number)
        .filter((n) => n > 0 && n <= 50);
      expect(extractYears(text, "max")).toBe(nums.length ? Math.max(...nums) : null);
      expect(extractYears(text, "min")).toBe(nums.length ? Math.min(...nums) : null);
    }
  });

  it("sentences: trailing dots and whitespace are trimmed without rescanning a run that is not at the end", () => {
    expect(sentences(`a${spaces(20_000)}b`)).toEqual([`a${spaces(20_000)}b`]);
    expect(sentences(`x${" . ".repeat(3_000)}y`)).toEqual([`x${" . ".repeat(3_000)}y`]);
    expect(sentences(`Mentor juniors${". ".repeat(5_000)}`)).toEqual(["Mentor juniors"]);
    expect(sentences(`-${spaces(9_997)}x;`)).toEqual([]);
    expect(sentences(`-${spaces(9_990)}Kafka`)).toEqual(["Kafka"]);
    for (const text of ORDINARY) expect(sentences(text)).toEqual(oldSentences(text));
  });

  it("keywords: trailing hyphens are trimmed in one pass", () => {
    expect(keywords(`a${"-".repeat(20_000)}b`)).toEqual([`a${"-".repeat(20_000)}b`]);
    expect(keywords(`abc${"-".repeat(20_000)} abc`)).toEqual(["abc"]);
    expect(keywords("data-driven--- data-driven teams, well-known-")).toEqual(["data-driven", "teams", "well-known"]);
  });

  it("merge fields: '{{' followed by a long run of spaces, with and without a closing '}}'", () => {
    const open = `{{${spaces(19_997)}x`; // the longest template the document allows
    expect(unknownFields(open)).toEqual([]);
    expect(unknownFields(`{{${spaces(9_990)}ssn${spaces(9_990)}}}`)).toEqual(["ssn"]);
    const values = Object.fromEntries(MERGE_FIELDS.map((f) => [f, `<${f}>`])) as Record<MergeField, string>;
    expect(fillTemplate(`Dear {{${spaces(9_000)}candidate_name${spaces(9_000)}}}!`, values)).toBe("Dear <candidate_name>!");
    expect(fillTemplate(open, values)).toBe(open);
    for (const template of [
      "Dear {{candidate_name}}, {{ job_title }} at {{company_name  }}.",
      "{{{x}}}} {{ }} {{\tssn\n}} {{a b}} {{today}}{{today}}",
      "{{ {{salary}} }}",
    ]) {
      const old = [...template.matchAll(OLD_FIELD_RE)].map((m) => m[1]);
      expect(unknownFields(template)).toEqual([...new Set(old.filter((f) => !(MERGE_FIELDS as readonly string[]).includes(f)))]);
      expect(fillTemplate(template, values)).toBe(template.replace(OLD_FIELD_RE, (_, f: MergeField) => values[f] ?? ""));
    }
  });

  it("the AI provider's answer loses its code fence, whatever whitespace it holds", () => {
    expect(withoutFence(`\`\`\`json${spaces(100_000)}{"a": 1}${spaces(100_000)}\`\`\``)).toBe('{"a": 1}');
    const inner = `{"a":${spaces(100_000)}1}`;
    expect(withoutFence(inner)).toBe(inner);
    for (const text of ['```json\n{"a":1}\n```', '  ```\n{"a":1}```  ', '{"a":1}', "```", "````", '```json{"a":1}'])
      expect(withoutFence(text)).toBe(text.trim().replace(/^```(?:json)?\s*|\s*```$/g, ""));
  });

  it("formulas of the longest length allowed tokenize in one pass", () => {
    expect([...variablesOf(parseFormula(`BASIC${spaces(992)}+ 1`))]).toEqual(["BASIC"]);
    expect([...variablesOf(parseFormula(`${"(".repeat(50)}CTC${")".repeat(50)}${" + 1".repeat(224)}`))]).toEqual(["CTC"]);
  });
});

const t = useTestApp();
let c: Company;
beforeAll(async () => {
  c = await recruitingCompany(t, { company: "Loopcorp" });
});

/** The longest the event loop of this process was blocked while `fn` ran (ms). */
async function loopBlockedWhile(fn: () => Promise<unknown>): Promise<number> {
  const h = monitorEventLoopDelay({ resolution: 10 });
  h.enable();
  try {
    await fn();
    await new Promise((r) => setTimeout(r, 50)); // a sample after the last callback
  } finally {
    h.disable();
  }
  return h.max / 1e6 - 10;
}

describe("requests with the longest allowed texts of whitespace do not freeze the server", () => {
  it("resume screening of a 100 000-character resume that is runs of spaces between numbers", async () => {
    // 100 runs of 999 spaces after a digit, then "years" (the old pattern: over a second per run)
    const resume = `${`5${spaces(999)}`.repeat(99)}5${spaces(994)}years`;
    const requirements = `TypeScript${`${spaces(999)}.`.repeat(9)}${spaces(989)}x`;
    expect(resume).toHaveLength(100_000);
    expect(requirements).toHaveLength(10_000);
    let body: unknown;
    const blocked = await loopBlockedWhile(async () => {
      body = (
        await api(c.hr.agent)
          .op("screenResume", { body: { resume_text: resume, job_requirements: requirements } })
          .expect(200)
      ).body.data;
    });
    expect(body).toMatchObject({ experience_years: 5, missing_skills: ["typescript"], matched_skills: [] });
    expect(blocked).toBeLessThan(1000);
  });

  it("a letter template preview of 20 000 characters of '{{' and spaces without a closing '}}'", async () => {
    const template = `${`{{${spaces(498)}`.repeat(39)}{{${spaces(497)}x`;
    expect(template).toHaveLength(20_000);
    let pdf: Buffer | undefined;
    const blocked = await loopBlockedWhile(async () => {
      // by hand: the PDF's bytes, read with a parser of their own
      pdf = (
        await c.hr.agent.post("/api/recruitment/document-templates/preview-pdf").send({ template }).buffer(true).parse(binary).expect(200)
      ).body;
    });
    expect(pdf!.subarray(0, 5).toString()).toBe("%PDF-");
    expect(blocked).toBeLessThan(1000);
  });
});
