// /docs: the interactive API reference (Swagger UI, assets from node_modules, no network). It reads
// /docs/reference.json: the served document plus who may call each operation, and optional query
// parameters without examples (so *Try it out* does not filter by a made-up value). The page opens
// collapsed, with a filter box, and its curl snippets work as copied (a cookie jar, no empty form body).
import express, { type Router } from "express";
import swaggerUi from "swagger-ui-express";

type Json = Record<string, any>;
const METHODS = ["get", "put", "post", "delete", "patch"];

/** Who may call an operation, in words: roles, module, credential scope - or public. */
export function accessLine(op: Json): string {
  if (op["x-public"] === true) return "**Access:** public - no sign-in needed.";
  const parts = [`roles ${(op["x-roles"] as string[] | undefined)?.map((r) => `\`${r}\``).join(", ") ?? "(none)"}`];
  if (op["x-module"]) parts.push(`module \`${op["x-module"]}\` (403 \`module_disabled\` while the company has it off)`);
  parts.push(op["x-scope"] ? `API credential scope \`${op["x-scope"]}\`` : "session only (no API credential)");
  return `**Access:** ${parts.join(" · ")}.`;
}

function withoutExample(param: Json): void {
  const example = param.example ?? param.schema?.example ?? param.schema?.examples?.[0];
  delete param.example;
  delete param.examples;
  if (param.schema && !param.schema.$ref) {
    delete param.schema.example;
    delete param.schema.examples;
  }
  if (example !== undefined) {
    const shown = typeof example === "string" ? example : JSON.stringify(example);
    param.description = `${param.description ? `${param.description.trimEnd()} ` : ""}Example: \`${shown}\`.`;
  }
}

/** The document as the reference page shows it (see the file's comment); `doc` is not changed. */
export function referenceDocument(doc: Json): Json {
  const ref = structuredClone(doc);
  const optionalQuery = (p: Json) => p.in === "query" && p.required !== true;
  for (const param of Object.values((ref.components?.parameters ?? {}) as Record<string, Json>))
    if (optionalQuery(param)) withoutExample(param);
  for (const item of Object.values(ref.paths as Record<string, Json>)) {
    for (const param of (item.parameters ?? []) as Json[]) if (!param.$ref && optionalQuery(param)) withoutExample(param);
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      op.description = `${accessLine(op)}\n\n${op.description ?? ""}`.trimEnd();
      for (const param of (op.parameters ?? []) as Json[]) if (!param.$ref && optionalQuery(param)) withoutExample(param);
    }
  }
  return ref;
}

/** The page's Swagger UI plugin, served as a file: the content security policy allows no inline script. */
export const DOCS_SCRIPT = `"use strict";
(function () {
  var original = window.SwaggerUIBundle;
  var base = original.plugins.RequestSnippets().fn;
  var JAR = "cookies.txt";
  function header(req, name) {
    var h = req.get("headers");
    if (!h) return undefined;
    var keys = typeof h.keys === "function" ? Array.from(h.keys()) : Object.keys(h);
    var key = keys.find(function (k) { return k.toLowerCase() === name; });
    return key === undefined ? undefined : (typeof h.get === "function" ? h.get(key) : h[key]);
  }
  // curl as copied: a cookie jar for the session, and no form body for a POST without one
  function curlBash(req) {
    var cmd = base.requestSnippetGenerator_curl_bash(req).replace(/ \\\\\\n {2}-d ''$/, "");
    if (header(req, "authorization") !== undefined) return cmd;
    return cmd.replace(/^curl /, "curl -b " + JAR + " -c " + JAR + " ");
  }
  function text(v) { return v === undefined || v === null ? "" : String(v).toLowerCase(); }
  // the filter box: tags, paths, methods, summaries and operationIds
  function opsFilter(taggedOps, phrase) {
    var q = text(phrase).trim();
    if (!q) return taggedOps;
    return taggedOps
      .map(function (tagObj, tag) {
        if (text(tag).indexOf(q) !== -1) return tagObj;
        return tagObj.set("operations", tagObj.get("operations").filter(function (op) {
          var o = op.get("operation");
          return [op.get("path"), op.get("method"), o.get("operationId"), o.get("summary")].some(function (s) {
            return text(s).indexOf(q) !== -1;
          });
        }));
      })
      .filter(function (tagObj) { return tagObj.get("operations").size > 0; });
  }
  function HrmsDocs() {
    return { fn: { requestSnippetGenerator_curl_bash: curlBash, opsFilter: opsFilter } };
  }
  function wrapped(options) {
    var plugins = (options.plugins || []).concat([HrmsDocs]);
    return original(Object.assign({}, options, { plugins: plugins }));
  }
  Object.assign(wrapped, original);
  window.SwaggerUIBundle = wrapped;
  window.hrmsDocs = { curlBash: curlBash, opsFilter: opsFilter };
})();
`;

/** The Swagger UI settings of the page. */
export const SWAGGER_OPTIONS = {
  url: "/docs/reference.json",
  docExpansion: "none",
  filter: true,
  displayRequestDuration: true,
  defaultModelsExpandDepth: 0,
  requestSnippetsEnabled: true,
  requestSnippets: {
    generators: { curl_bash: { title: "cURL (bash)", syntax: "bash" } },
    defaultExpanded: true,
    languages: ["curl_bash"],
  },
};

/** The reference with signIn's example set to the demo owner's sign-in (`make seed`), so Execute lands in the demo. */
export function withDemoSignIn(reference: Json, demo: { email: string; password: string }): Json {
  const ref = structuredClone(reference);
  const body = ref.paths["/api/auth/sign-in"].post.requestBody.content["application/json"];
  body.example = { email: demo.email, password: demo.password };
  return ref;
}

/** `demo`: the demo owner's sign-in while `make seed`'s company exists, checked on every load of the reference. */
export function docsPage(document: () => Json, demo: () => Promise<{ email: string; password: string } | null>): Router {
  const router = express.Router();
  let reference: Json | undefined;
  let demoReference: Json | undefined;
  router.get("/reference.json", async (_req, res) => {
    reference ??= referenceDocument(document());
    const signIn = await demo();
    if (signIn) demoReference ??= withDemoSignIn(reference, signIn);
    res.json(signIn ? demoReference : reference);
  });
  router.get("/hrms-docs.js", (_req, res) => {
    res.setHeader("Cache-Control", "public, max-age=3600");
    res.type("text/javascript").send(DOCS_SCRIPT);
  });
  router.use(
    swaggerUi.serveFiles(undefined, { swaggerOptions: SWAGGER_OPTIONS }),
    swaggerUi.setup(undefined, { swaggerOptions: SWAGGER_OPTIONS, customSiteTitle: "HRMS API reference", customJs: "./hrms-docs.js" }),
  );
  return router;
}
