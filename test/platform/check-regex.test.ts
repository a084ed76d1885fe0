// scripts/checks/check-regex.ts (run by `make lint`): every regular expression of src/ and every pattern of
// the document is linear, so no crafted input can hold the event loop. The check must catch the
// expressions that froze the server before and see through the ways src/ builds them.
import { describe, expect, it } from "vitest";
import { documentPatterns, judge, regexesOf } from "../../scripts/checks/check-regex.ts";

/** `${expr}` inside a code sample (a template literal of the checked code, not of this test). */
const interp = (expr: string) => `\u0024{${expr}}`;
const verdicts = (code: string) => regexesOf("f.ts", code).map((f) => judge(f).status);

describe("check-regex", () => {
  it("calls the old years-of-experience, merge-field and trailing-trim expressions vulnerable", () => {
    expect(verdicts(String.raw`const a = /(\d{1,2}(?:\.\d)?)\s*\+?\s*(?:-|to)?\s*(?:\d{1,2}\s*)?(?:years?|yrs?)\b/gi;`)).toEqual([
      "vulnerable",
    ]);
    expect(verdicts(String.raw`const b = /\{\{\s*([^{}]*?)\s*\}\}/g;`)).toEqual(["vulnerable"]);
    expect(verdicts(String.raw`s.replace(/[.\s]+$/, "");`)).toEqual(["vulnerable"]);
    expect(verdicts("/^(a+)+$/.test(s);")).toEqual(["vulnerable"]);
    expect(verdicts("/^[a-z][a-z0-9_]*$/.test(s);")).toEqual(["safe"]);
  });

  it("checks patterns built at run time, and accepts a stated bound only on the line or comment above", () => {
    // escapeRegExp(...) stands for a literal; a bare interpolation cannot be checked
    expect(verdicts(`new RegExp(\`(?<![a-z])${interp("escapeRegExp(t)")}(?![a-z])\`, 'i');`)).toEqual(["safe"]);
    expect(verdicts(`new RegExp(\`(?<![a-z])${interp("t")}\`, 'i');`)).toEqual(["opaque"]);
    expect(verdicts('new RegExp(["a+", "(b+)+$"].join("|"));')).toEqual(["vulnerable"]);
    expect(verdicts('new RegExp("^(own|lead" + "|mentor)\\\\b", "i");')).toEqual(["safe"]);
    expect(verdicts("// regex-bounded: a 44-character digest\nd.replace(/=+$/, '');")).toEqual(["safe"]);
    expect(verdicts("// regex-bounded: a digest\n\nd.replace(/=+$/, '');")).toEqual(["vulnerable"]);
  });

  it("collects every pattern of a document", () => {
    const doc = { components: { schemas: { A: { pattern: "^[A-Z]{4}0[A-Z0-9]{6}$" }, B: { items: { pattern: "^(a|a)*$" } } } } };
    expect(
      documentPatterns(doc)
        .map((p) => judge(p).status)
        .sort(),
    ).toEqual(["safe", "vulnerable"]);
  });
});
