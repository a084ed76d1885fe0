// Security review, item 11: payslips, bank details, PAN and identity documents were
// served without `Cache-Control: no-store`. The document declares it once (the header component
// CacheControlNoStore, added to every success response when bundling) and the dispatch sends it on
// every answer of an operation - JSON, files, errors - from that declaration (src/http/routing.ts). The
// response recorder (test/support/recorder.ts) holds every response of the suite to the declared,
// required header; this file shows what a client sees.
import { describe, expect, it } from "vitest";
import { api } from "../support/api.ts";
import { addMember, expectError, signupTenant, useTestApp } from "../support/app.ts";
import { asObject, bundledDocument, deref, documentOperationsOf } from "../support/document.ts";
import { createEmployee } from "../support/employees.ts";

const t = useTestApp();
/** Whether a success response (inline or a shared component) declares the no-store header component. */
const noStore = (r: unknown): boolean =>
  asObject(asObject(deref(r).headers)["Cache-Control"]).$ref === "#/components/headers/CacheControlNoStore";
const PDF = Buffer.concat([Buffer.from("%PDF-1.4\n"), Buffer.from("identity document ".repeat(40))]);

describe("the document: every success response declares Cache-Control: no-store", () => {
  it("once, as a header component, referenced by every 2xx response of every operation", () => {
    const headers = asObject(asObject(bundledDocument().components).headers);
    expect(headers.CacheControlNoStore).toMatchObject({ required: true, schema: { const: "no-store" } });
    const missing: string[] = [];
    for (const { path, method, op } of documentOperationsOf())
      for (const [status, r] of Object.entries(asObject(op.responses)))
        if (status.startsWith("2") && !noStore(r)) missing.push(`${method.toUpperCase()} ${path} ${status}`);
    expect(missing).toEqual([]);
  });
});

describe("getEmployee, downloadEmployeeDocument, listEmployees, getHealth: answers carry no-store", () => {
  it("the profile with bank details and PAN, an identity document, a list, an error and health", async () => {
    const o = await signupTenant(t);
    const e = await createEmployee(o, { pan_number: "ABCDE1234F", bank_account_number: "123456789012" });
    const profile = await api(o.agent)
      .op("getEmployee", { params: { employeeId: e.id } })
      .expect(200);
    expect(profile.headers["cache-control"]).toBe("no-store");
    const doc = (
      await o.agent
        .post(`/api/employees/${e.id}/documents`)
        .field("document_type", "passport")
        .field("title", "Passport")
        .attach("file", PDF, { filename: "passport.pdf", contentType: "application/pdf" })
        .expect(201)
    ).body.data;
    const file = await o.agent.get(doc.download_path).expect(200);
    expect(file.headers["cache-control"]).toBe("no-store");
    expect((await api(o.agent).op("listEmployees").expect(200)).headers["cache-control"]).toBe("no-store");
    expect((await o.agent.head(`/api/employees/${e.id}`).expect(200)).headers["cache-control"]).toBe("no-store");
    const employee = await addMember(t, o, "employee");
    const refused = await api(employee.agent).op("listEmployeeDocuments", { params: { employeeId: e.id } });
    expectError(refused, 404);
    expect(refused.headers["cache-control"]).toBe("no-store");
    expect((await api(t.request()).op("getHealth").expect(200)).headers["cache-control"]).toBe("no-store");
  });
});
