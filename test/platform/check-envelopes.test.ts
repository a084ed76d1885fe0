// scripts/checks/check-envelopes.ts (run by `make lint`): success envelopes, lists among them, are built
// by src/http/envelope.ts only, so every list answers in the shape its document declares.
import { describe, expect, it } from "vitest";
import { checkEnvelopes, handBuiltEnvelopesOf } from "../../scripts/checks/check-envelopes.ts";

describe("check-envelopes", () => {
  it("finds envelopes built by hand, not the helpers' calls", () => {
    const text = [
      'return { status: 200 as const, body: { data: rows, message: "OK" } };', // 1: found
      'return { status: 200, body: { data, message: "OK", pagination: { page, limit, total } } };', // 2: found (both rules)
      "return listed(operationId, { rows, page, total });",
      'return ok(events, "OK", { next_cursor: next });', // a declared envelope field beside data: the helper adds it
      "const more = { has_more: true };", // 5: found
      "// pagination: in a comment",
      ' * the answer\'s "pagination: null" in a doc comment',
      'const words = "total_pages: in a string";',
      "return { status: 200, body: token };", // an unenveloped standard shape (OAuth): not an envelope
    ].join("\n");
    expect(handBuiltEnvelopesOf("x.ts", text).map((f) => f.line)).toEqual([1, 2, 2, 5]);
  });

  it("src/ builds no envelope outside src/http/envelope.ts", () => {
    expect(checkEnvelopes().map((f) => `${f.file}:${f.line}: ${f.text}`)).toEqual([]);
  });
});
