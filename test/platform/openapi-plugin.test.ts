// The bundling steps of openapi/plugins/hrms.js on a small document of their own (the real one is
// bundled by `make generate`, and `make test` checks generated/ is what it gives): the success
// envelope written around `x-data`, the file names of path items, and what each refuses.
import { spawn } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");
const redocly = path.join(root, "node_modules", ".bin", "redocly");
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const files: Record<string, string> = {
  "openapi.yaml": `openapi: 3.1.0
info: { title: Fixture, version: "1", description: Fixture. }
paths:
  /api/things: { $ref: "./paths/api_things.yaml" }
  /api/things/{id}: { $ref: "./paths/api_things_{id}.yaml" }
components:
  schemas:
    Ack: { $ref: ./components/schemas/Ack.yaml }
    Pagination: { $ref: ./components/schemas/Pagination.yaml }
    Thing: { $ref: ./components/schemas/Thing.yaml }
`,
  "components/schemas/Thing.yaml": "type: object\nproperties:\n  id: { type: string }\n",
  // reached only from a payload, and referencing further: bundled as if written out
  "components/schemas/Box.yaml": "type: object\nproperties:\n  things: { type: array, items: { $ref: ./Thing.yaml } }\n",
  "paths/api_things.yaml": `get:
  operationId: listThings
  responses:
    "200":
      description: A page.
      x-data: { type: array, items: { $ref: ../components/schemas/Thing.yaml } }
      x-paginated: true
      x-envelope-fields:
        unread_count: { type: integer, minimum: 0 }
post:
  operationId: createThing
  responses:
    "201":
      description: Created.
      headers:
        Location: { schema: { type: string } }
      x-data: { $ref: ../components/schemas/Box.yaml }
`,
  "paths/api_things_{id}.yaml": `get:
  operationId: getThingPdf
  responses:
    "200":
      description: The thing as PDF.
      content:
        application/pdf: { schema: { type: string, format: binary } }
delete:
  operationId: deleteThing
  responses:
    "200":
      description: Deleted.
      x-data: null
`,
};

/** A copy of the fixture document (changed by `edit`), with the plugin's bundling steps configured. */
function fixture(edit: (dir: string) => void = () => {}): string {
  const dir = mkdtempSync(path.join(tmpdir(), "hrms-openapi-"));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  for (const name of ["Ack", "Pagination"])
    copyFileSync(path.join(root, "openapi/components/schemas", `${name}.yaml`), path.join(dir, "components/schemas", `${name}.yaml`));
  writeFileSync(
    path.join(dir, "redocly.yaml"),
    `plugins:\n  - ${JSON.stringify(path.join(root, "openapi/plugins/hrms.js"))}\npreprocessors:\n  ` +
      `hrms/success-wrapper: on\ndecorators:\n  hrms/path-file-names: on\n`,
  );
  edit(dir);
  return dir;
}

function redoclyRun(dir: string, args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(redocly, args, { cwd: dir, env: { ...process.env, NO_COLOR: "1" } });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, output }));
  });
}
const bundle = (dir: string) => redoclyRun(dir, ["bundle", "openapi.yaml", "--config", "redocly.yaml", "-o", "bundle.json"]);

describe("openapi plugin, when bundling", () => {
  it("writes the success envelope around x-data, as it used to be written in the path files", async () => {
    const dir = fixture();
    const r = await bundle(dir);
    expect(r.code, r.output).toBe(0);
    const doc = JSON.parse(readFileSync(path.join(dir, "bundle.json"), "utf8"));
    const json = (method: string, p: string) => doc.paths[p][method].responses;
    const list = json("get", "/api/things")["200"];
    expect(list).toEqual({
      description: "A page.",
      content: {
        "application/json": {
          schema: {
            type: "object",
            required: ["data", "message", "pagination", "unread_count"],
            properties: {
              data: { type: "array", items: { $ref: "#/components/schemas/Thing" }, maxItems: 100 },
              message: { type: "string", example: "OK" },
              pagination: { $ref: "#/components/schemas/Pagination" },
              unread_count: { type: "integer", minimum: 0 },
            },
          },
        },
      },
    });
    expect(Object.keys(list.content["application/json"].schema.properties)).toEqual(["data", "message", "pagination", "unread_count"]);
    const created = json("post", "/api/things")["201"];
    expect(Object.keys(created)).toEqual(["description", "headers", "content"]);
    expect(created.content["application/json"].schema).toEqual({
      type: "object",
      required: ["data", "message"],
      properties: { data: { $ref: "#/components/schemas/Box" }, message: { type: "string", example: "Created" } },
    });
    expect(doc.components.schemas.Box).toEqual({
      type: "object",
      properties: { things: { type: "array", items: { $ref: "#/components/schemas/Thing" } } },
    });
    expect(json("delete", "/api/things/{id}")["200"]).toEqual({
      description: "Deleted.",
      content: { "application/json": { schema: { $ref: "#/components/schemas/Ack" } } },
    });
    expect(json("get", "/api/things/{id}")["200"].content).toEqual({ "application/pdf": { schema: { type: "string", format: "binary" } } });
    expect(JSON.stringify(doc)).not.toMatch(/x-data|x-paginated|x-envelope-fields/);
  });

  it("refuses a path file not named from its path, an inline path item, and a file no path references", async () => {
    const dir = fixture((d) => {
      renameSync(path.join(d, "paths/api_things_{id}.yaml"), path.join(d, "paths/thing.yaml"));
      writeFileSync(path.join(d, "paths/api_stray.yaml"), "{}\n");
      const root = readFileSync(path.join(d, "openapi.yaml"), "utf8")
        .replace("./paths/api_things_{id}.yaml", "./paths/thing.yaml")
        .replace(
          "components:",
          `  /api/inline:\n    get: { operationId: inline, responses: { "200": { description: OK. } } }\ncomponents:`,
        );
      writeFileSync(path.join(d, "openapi.yaml"), root);
    });
    const r = await bundle(dir);
    expect(r.code).not.toBe(0);
    expect(r.output).toContain(
      "The path item of /api/things/{id} must be the file openapi/paths/api_things_{id}.yaml, " +
        "referenced from openapi.yaml (not openapi/paths/thing.yaml).",
    );
    expect(r.output).toContain(
      "The path item of /api/inline must be the file openapi/paths/api_inline.yaml, referenced from openapi.yaml (not written inline).",
    );
    expect(r.output).toContain("openapi/paths/api_stray.yaml is no path item of the document");
    expect(r.output).toContain("openapi/paths/thing.yaml is no path item of the document");
    expect(r.output).toContain("bundle not created");
  });

  it("refuses a success envelope written out, and the payload keys where they do not belong", async () => {
    const dir = fixture((d) => {
      const file = path.join(d, "paths/api_things.yaml");
      const text = readFileSync(file, "utf8")
        .replace(
          "      x-data: { $ref: ../components/schemas/Box.yaml }\n",
          "      content:\n        application/json:\n          schema:\n            type: " +
            "object\n            properties:\n              data: { $ref: ../components/schemas/Box.yaml }\n              " +
            "message: { type: string }\n",
        )
        .replace("      x-paginated: true\n", '      x-paginated: true\n    "404":\n      description: Not found.\n      x-data: null\n');
      writeFileSync(
        file,
        text +
          `put:\n  operationId: putThing\n  responses:\n    "200":\n      description: ` +
          `Both.\n      x-data: null\n      x-paginated: true\n`,
      );
    });
    const r = await bundle(dir);
    expect(r.code).not.toBe(0);
    expect(r.output).toContain("Success response 201: declare the payload as `x-data: <schema>`");
    expect(r.output).toContain("`x-data` declares a success payload; 404 is no success response.");
    expect(r.output).toContain("`x-data: null` (the Ack envelope) has neither pagination nor further fields.");
    expect(r.output).toContain("bundle not created");
  });
});

describe("openapi plugin, lists walked by cursor (x-cursor)", () => {
  /** The fixture with the cursor parameters as components and the cursor-lists decorator on. */
  const cursorFixture = (extra = "") =>
    fixture((d) => {
      mkdirSync(path.join(d, "components/parameters"), { recursive: true });
      const names = ["Cursor", "UpdatedSince", "IncludeDeleted", "SortChanged"];
      for (const name of names)
        copyFileSync(
          path.join(root, "openapi/components/parameters", `${name}.yaml`),
          path.join(d, "components/parameters", `${name}.yaml`),
        );
      const root_ = path.join(d, "openapi.yaml");
      const parameters = names.map((n) => `    ${n}: { $ref: ./components/parameters/${n}.yaml }`).join("\n");
      writeFileSync(root_, readFileSync(root_, "utf8").replace("components:\n", `components:\n  parameters:\n${parameters}\n`));
      const file = path.join(d, "paths/api_things.yaml");
      writeFileSync(
        file,
        readFileSync(file, "utf8").replace("  operationId: listThings\n", "  operationId: listThings\n  x-cursor: { tombstones: true }\n") +
          extra,
      );
      const config = path.join(d, "redocly.yaml");
      writeFileSync(config, `${readFileSync(config, "utf8")}  hrms/cursor-lists: on\n`);
    });

  it("adds cursor, updated_since, include_deleted, sort=changed, next_cursor, has_more, a nullable pagination, deleted_at", async () => {
    const dir = cursorFixture();
    const r = await bundle(dir);
    expect(r.code, r.output).toBe(0);
    const doc = JSON.parse(readFileSync(path.join(dir, "bundle.json"), "utf8"));
    const op = doc.paths["/api/things"].get;
    expect(op.parameters.map((p: { $ref: string }) => p.$ref)).toEqual(
      ["Cursor", "UpdatedSince", "IncludeDeleted", "SortChanged"].map((n) => `#/components/parameters/${n}`),
    );
    const schema = op.responses["200"].content["application/json"].schema;
    expect(schema.required).toEqual(["data", "message", "pagination", "unread_count", "next_cursor", "has_more"]);
    expect(schema.properties.next_cursor.type).toEqual(["string", "null"]);
    expect(schema.properties.pagination.oneOf).toEqual([{ $ref: "#/components/schemas/Pagination" }, { type: "null" }]);
    expect(schema.properties.has_more.type).toBe("boolean");
    expect(doc.components.schemas.Thing.properties.deleted_at).toMatchObject({ type: "string", format: "date-time" });
  });

  it("refuses x-cursor on a write", async () => {
    const r = await bundle(
      cursorFixture(
        "put:\n  operationId: putThing\n  x-cursor: { tombstones: true }\n" +
          '  responses:\n    "200":\n      description: Done.\n      x-data: null\n',
      ),
    );
    expect(r.code).not.toBe(0);
    expect(r.output).toContain("`x-cursor` is `{ tombstones: true | false }`, on a GET list.");
  });
});

describe("openapi plugin, lint rule hrms/success-envelope", () => {
  it("accepts the envelopes of the bundle and refuses another success body", async () => {
    const dir = fixture();
    expect((await bundle(dir)).code).toBe(0);
    const doc = JSON.parse(readFileSync(path.join(dir, "bundle.json"), "utf8"));
    doc.paths["/api/things"].post.responses["201"].content["application/json"].schema = { $ref: "#/components/schemas/Thing" };
    doc.paths["/api/things"].get.responses["200"].content["application/json"].schema.properties.pagination = { type: "object" };
    writeFileSync(path.join(dir, "changed.json"), JSON.stringify(doc));
    writeFileSync(
      path.join(dir, "lint.yaml"),
      `plugins:\n  - ${JSON.stringify(path.join(root, "openapi/plugins/hrms.js"))}\nrules:\n  hrms/success-envelope: error\n`,
    );
    const lint = async (file: string) => {
      const r = await redoclyRun(dir, ["lint", file, "--config", "lint.yaml", "--format", "json"]);
      const report = JSON.parse(r.output.slice(r.output.indexOf("{"), r.output.lastIndexOf("}") + 1));
      return report.problems
        .filter((p: { ruleId: string }) => p.ruleId === "hrms/success-envelope")
        .map((p: { location: { pointer: string }[] }) => p.location[0].pointer);
    };
    expect(await lint("bundle.json")).toEqual([]);
    expect((await lint("changed.json")).sort()).toEqual([
      "#/paths/~1api~1things/get/responses/200",
      "#/paths/~1api~1things/post/responses/201",
    ]);
  });
});
