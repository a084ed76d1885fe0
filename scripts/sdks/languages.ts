// The five generated clients: how each is generated from generated/openapi.json, which generator
// warnings are expected (each with its reason; any other warning fails `make sdks`), how it is
// compiled or type-checked strictly, and how its journey (sdks/<language>/) is run. Generation and
// build are skipped when neither the document nor the language's own files changed (a stamp in
// .sdks/gen/<language>/): the Java, Go and Rust builds are heavy on a shared machine.
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { rustTemplates } from "./rust-templates.ts";
import {
  cache,
  ensureOpenApiGenerator,
  ensureVenv,
  fileHash,
  MAVEN_REPO,
  OPENAPI_GENERATOR,
  root,
  sh,
  sha256,
  stamp,
  stamped,
} from "./tools.ts";

export interface Language {
  name: string;
  /** the generator and its version, as the report prints it */
  generator: string;
  /** files besides the document whose change means generating and building again */
  inputs: string[];
  /** warnings the generator prints that are understood (anything else fails), with the reason */
  expectedWarnings: { pattern: RegExp; reason: string }[];
  /** the lines of the generator's output that are warnings */
  warningLines: (output: string) => string[];
  generate: (out: string) => Promise<string>;
  build: (out: string) => Promise<void>;
  /** the journey's command: [program, args, cwd] */
  journey: (out: string) => Promise<[string, string[], string]>;
}

const DOC = path.join(root, "generated", "openapi.json");
const gen = (name: string) => path.join(cache, "gen", name);
const bin = (name: string) => path.join(root, "node_modules", ".bin", name);

/** Every file under `dir` (sorted), for the stamp. */
function filesUnder(dir: string): string[] {
  const abs = path.join(root, dir);
  if (!existsSync(abs)) return [];
  return readdirSync(abs, { recursive: true, encoding: "utf8" })
    .filter((f) => statSync(path.join(abs, f)).isFile())
    .sort()
    .map((f) => path.join(dir, f));
}

const openapiGeneratorWarnings = (output: string) => output.split("\n").filter((l) => /\bWARN\b|\[warn/i.test(l));

/** Warnings every openapi-generator language prints for this document. */
const OPENAPI_GENERATOR_COMMON = [
  {
    pattern: /OpenAPI 3\.1 support is still in beta/,
    reason: "the document is OpenAPI 3.1 (type arrays for nullable fields, webhooks); the generator prints this for every 3.1 input",
  },
  {
    pattern: /Failed to get the schema name: null/,
    reason:
      "an internal lookup of the generator (ModelUtils.getSimpleRef called without a $ref, logged once per call site) that names no " +
      "schema of the document; every operation and model is generated, and the client compiles and passes its journey",
  },
];

async function openapiGenerate(generator: string, out: string, props: string[], extra: string[] = []): Promise<string> {
  const jar = await ensureOpenApiGenerator();
  rmSync(out, { recursive: true, force: true });
  const { output } = await sh("java", [
    "-jar",
    jar,
    "generate",
    "-g",
    generator,
    "-i",
    DOC,
    "-o",
    out,
    "--additional-properties",
    props.join(","),
    ...extra,
  ]);
  return output;
}

const generatorName = `openapi-generator ${OPENAPI_GENERATOR.coordinates.split(":").pop()}`;

export const LANGUAGES: Language[] = [
  {
    name: "typescript",
    generator: "@hey-api/openapi-ts (package-lock.json)",
    inputs: ["package-lock.json", ...filesUnder("sdks/typescript")],
    expectedWarnings: [],
    // a warning or an error printed is a failure even when the generator exits 0 (it prints "Done!" anyway)
    warningLines: (o) => o.split("\n").filter((l) => /warn|error|⚠/i.test(l)),
    generate: async (out) => (await sh(bin("openapi-ts"), ["-i", DOC, "-o", out], { env: { NO_COLOR: "1", FORCE_COLOR: "0" } })).output,
    // TypeScript 7 (the native compiler), as `make typecheck`
    build: async () =>
      void (await sh(path.join(root, "node_modules/typescript-native/bin/tsc"), ["-p", path.join(root, "sdks/typescript/tsconfig.json")])),
    journey: async () => [bin("tsx"), [path.join(root, "sdks/typescript/journey.ts")], root],
  },
  {
    name: "python",
    generator: "openapi-python-client (sdks/python/requirements.txt)",
    inputs: filesUnder("sdks/python"),
    expectedWarnings: [],
    warningLines: (o) => o.split("\n").filter((l) => /warning/i.test(l)),
    generate: async (out) => {
      const venv = await ensureVenv("venv-python", "sdks/python/requirements.txt");
      rmSync(out, { recursive: true, force: true });
      const args = ["generate", "--path", DOC, "--output-path", out, "--config", path.join(root, "sdks/python/config.yaml")];
      // its post-generation hook runs ruff (a dependency in the requirements) from PATH
      return (await sh(path.join(venv, "bin", "openapi-python-client"), args, { env: { PATH: `${venv}/bin:${process.env.PATH}` } })).output;
    },
    build: async (out) => {
      const venv = await ensureVenv("venv-python", "sdks/python/requirements.txt");
      await sh(path.join(venv, "bin", "mypy"), ["--strict", "--cache-dir", path.join(cache, "mypy-cache"), "sdks/python/journey.py"], {
        env: { MYPYPATH: out },
      });
    },
    journey: async (out) => {
      const venv = path.join(cache, "venv-python");
      process.env.PYTHONPATH = out;
      return [path.join(venv, "bin", "python"), [path.join(root, "sdks/python/journey.py")], root];
    },
  },
  {
    name: "go",
    generator: generatorName,
    inputs: filesUnder("sdks/go"),
    expectedWarnings: [
      ...OPENAPI_GENERATOR_COMMON,
      {
        pattern: /type \(reserved word\) cannot be used as (parameter|model) name/,
        reason: "`type` (a query parameter and a schema) is a Go keyword: the generator names them `type_` and `ModelType`",
      },
    ],
    warningLines: openapiGeneratorWarnings,
    generate: (out) =>
      openapiGenerate(
        "go",
        out,
        ["packageName=hrms", "withGoMod=true", "hideGenerationTimestamp=true", "enumClassPrefix=true"],
        ["--git-host", "hrms.example", "--git-user-id", "sdk", "--git-repo-id", "go"],
      ),
    build: async () => {
      await sh("go", ["build", "-o", path.join(cache, "bin", "go-journey"), "."], { cwd: path.join(root, "sdks/go"), env: goEnv() });
      await sh("go", ["vet", "."], { cwd: path.join(root, "sdks/go"), env: goEnv() });
    },
    journey: async () => [path.join(cache, "bin", "go-journey"), [], root],
  },
  {
    name: "java",
    generator: generatorName,
    inputs: filesUnder("sdks/java").filter((f) => !f.includes("/target/")),
    expectedWarnings: [
      ...OPENAPI_GENERATOR_COMMON,
      {
        pattern: /Ignoring complex example on request body/,
        reason: "the Java generator writes only scalar examples into its Javadoc; the document's object examples stay in the document",
      },
    ],
    warningLines: openapiGeneratorWarnings,
    generate: (out) =>
      openapiGenerate("java", out, [
        "library=okhttp-gson",
        "groupId=com.example.hrms",
        "artifactId=hrms-client",
        "artifactVersion=0.0.0-SNAPSHOT",
        "invokerPackage=com.example.hrms.client",
        "apiPackage=com.example.hrms.client.api",
        "modelPackage=com.example.hrms.client.model",
        "hideGenerationTimestamp=true",
        "openApiNullable=false",
        "useJakartaEe=true",
      ]),
    build: async (out) => {
      const mvn = ["-q", "-B", `-Dmaven.repo.local=${MAVEN_REPO}`, "-Dmaven.javadoc.skip=true", "-DskipTests"];
      await sh("mvn", [...mvn, "install"], { cwd: out });
      await sh("mvn", [...mvn, "-Dmaven.compiler.failOnWarning=true", "package"], { cwd: path.join(root, "sdks/java") });
    },
    journey: async () => [
      "mvn",
      ["-q", "-B", `-Dmaven.repo.local=${MAVEN_REPO}`, "exec:java", "-Dexec.mainClass=com.example.hrms.journey.Journey"],
      path.join(root, "sdks/java"),
    ],
  },
  {
    name: "rust",
    generator: generatorName,
    inputs: [...filesUnder("sdks/rust").filter((f) => !f.includes("/target/")), "scripts/sdks/rust-templates.ts"],
    expectedWarnings: [
      ...OPENAPI_GENERATOR_COMMON,
      {
        pattern: /AbstractRustCodegen - .+ cannot be used as a (model|parameter|enum variant|enum|field\/variable) name\. Renamed to /,
        reason:
          "the Rust generator reports every identifier it passes through its sanitizer, most unchanged (`CacheControl` to " +
          "`CacheControl`); the real renames are Rust's rules: the keyword `type` becomes `r#type`, numeric enum values " +
          "(`10`) `Variant10`, `Self` `VariantSelf`, and its internal names of media types (`ApplicationSlashJson`) and of " +
          "`serde_json::Value` (no field of the client bears it)",
      },
    ],
    warningLines: openapiGeneratorWarnings,
    generate: async (out) =>
      openapiGenerate(
        "rust",
        out,
        ["packageName=hrms-client", "library=reqwest", "supportAsync=true", "supportMiddleware=true", "avoidBoxedModels=true"],
        ["--template-dir", await rustTemplates()], // text/csv and NDJSON answers read as text: scripts/sdks/rust-templates.ts
      ),
    build: async () =>
      void (await sh("cargo", ["build", "--locked", "--release", "--quiet"], { cwd: path.join(root, "sdks/rust"), env: cargoEnv() })),
    journey: async () => [path.join(cache, "rust-target", "release", "hrms-journey"), [], root],
  },
];

export function goEnv(): Record<string, string> {
  return {
    GOMODCACHE: path.join(cache, "go", "mod"),
    GOCACHE: path.join(cache, "go", "build"),
    GOFLAGS: "-mod=readonly -modcacherw",
    GOTOOLCHAIN: "local",
  };
}

export function cargoEnv(): Record<string, string> {
  return { CARGO_TARGET_DIR: path.join(cache, "rust-target"), CARGO_HOME: path.join(cache, "cargo") };
}

/**
 * Generates and builds `lang` unless its stamp says the same document and inputs were already built.
 * Returns the warnings left after the expected ones (the caller fails on any).
 */
export async function prepare(lang: Language, log: (line: string) => void): Promise<{ unexpected: string[]; cached: boolean }> {
  const out = gen(lang.name);
  const want = sha256(fileHash(DOC), ...lang.inputs.map((f) => `\0${f}\0${fileHash(f)}`), `\0${lang.generator}`);
  const stampFile = path.join(cache, "stamps", lang.name);
  if (stamped(stampFile, want) && existsSync(out)) return { unexpected: [], cached: true };
  log(`${lang.name}: generating (${lang.generator})`);
  const output = await lang.generate(out);
  mkdirSync(path.join(cache, "logs"), { recursive: true });
  writeFileSync(path.join(cache, "logs", `${lang.name}-generate.log`), output);
  const warnings = lang.warningLines(output);
  const unexpected = warnings.filter((l) => !lang.expectedWarnings.some((w) => w.pattern.test(l)));
  // the list stays what the pinned generator prints: an entry it no longer prints is stale
  for (const w of lang.expectedWarnings)
    if (!warnings.some((l) => w.pattern.test(l)))
      unexpected.push(`listed but no longer printed (remove it here and from docs/testing.md): ${w.pattern}`);
  if (unexpected.length) return { unexpected, cached: false };
  log(`${lang.name}: building`);
  await lang.build(out);
  stamp(stampFile, want);
  return { unexpected: [], cached: false };
}

export const generatedDir = gen;
