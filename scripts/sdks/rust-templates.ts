// openapi-generator's Rust (reqwest) client reads an answer as text only when its Content-Type is
// `text/plain` and the operation declares `text/plain`: a `text/csv` export typed `string` is refused
// ("cannot be converted to `String`"), as is NDJSON (its `application/x-ndjson` is taken for one JSON
// value). The wire is right (RFC 4180 `text/csv`, what every other client and spreadsheet expects), so
// the Rust client is generated with two of the pinned generator's own templates edited: every `text/*`
// and NDJSON answer is text, and an operation whose answer is a string returns that text. The
// templates are taken from the pinned jar (`author template`) and each edit must match exactly once:
// a new generator version whose templates changed fails here instead of generating a different client.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { cache, ensureOpenApiGenerator, OPENAPI_GENERATOR, sh, sha256, stamp, stamped } from "./tools.ts";

interface Edit {
  file: string;
  why: string;
  from: string;
  to: string;
}

export const RUST_TEMPLATE_EDITS: Edit[] = [
  {
    file: "reqwest/api_mod.mustache",
    why: "every text/* answer (text/csv) and NDJSON is text, not only text/plain; NDJSON is no single JSON value",
    from: [
      '        if content_type.starts_with("application") && content_type.contains("json") {',
      "            return Self::Json;",
      '        } else if content_type.starts_with("text/plain") {',
      "            return Self::Text;",
      "        } else {",
    ].join("\n"),
    to: [
      '        if content_type.starts_with("text/") || content_type.starts_with("application/x-ndjson") {',
      "            return Self::Text;",
      '        } else if content_type.starts_with("application") && content_type.contains("json") {',
      "            return Self::Json;",
      "        } else {",
    ].join("\n"),
  },
  {
    file: "reqwest/api.mustache",
    why: "an operation whose answer is a string returns the text (the generator does it only when text/plain is declared)",
    from: [
      "            {{#vendorExtensions.x-supports-plain-text}}",
      "            ContentType::Text => return Ok(content),",
      "            {{/vendorExtensions.x-supports-plain-text}}",
      "            {{^vendorExtensions.x-supports-plain-text}}",
    ].join("\n"),
    to: [
      "            {{#returnProperty.isString}}",
      "            ContentType::Text => return Ok(content),",
      "            {{/returnProperty.isString}}",
      "            {{^returnProperty.isString}}",
    ].join("\n"),
  },
  {
    file: "reqwest/api.mustache",
    why: "the end of the section the previous edit opened",
    from: [
      'cannot be converted to `{{returnType}}`"))),',
      "            {{/vendorExtensions.x-supports-plain-text}}",
      "            ContentType::Unsupported",
    ].join("\n"),
    to: [
      'cannot be converted to `{{returnType}}`"))),',
      "            {{/returnProperty.isString}}",
      "            ContentType::Unsupported",
    ].join("\n"),
  },
];

const occurrences = (text: string, part: string): number => text.split(part).length - 1;

/** The folder to pass as `--template-dir`: the pinned generator's Rust templates with the edits above. */
export async function rustTemplates(): Promise<string> {
  const version = OPENAPI_GENERATOR.coordinates.split(":").pop();
  const dir = path.join(cache, "templates", `rust-${version}`);
  const done = path.join(dir, ".edited");
  const want = sha256(JSON.stringify(RUST_TEMPLATE_EDITS));
  if (stamped(done, want)) return dir;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const jar = await ensureOpenApiGenerator();
  await sh("java", ["-jar", jar, "author", "template", "-g", "rust", "-o", dir]);
  for (const edit of RUST_TEMPLATE_EDITS) {
    const file = path.join(dir, edit.file);
    const text = readFileSync(file, "utf8");
    const n = occurrences(text, edit.from);
    if (n !== 1) throw new Error(`${edit.file} of openapi-generator ${version}: the edit (${edit.why}) matches ${n} times, not once`);
    writeFileSync(file, text.replace(edit.from, edit.to));
  }
  stamp(done, want);
  return dir;
}
