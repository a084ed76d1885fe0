// downloadFile, downloadEmployeeDocument: text files are declared as the text they are (a string,
// not binary), so that generated clients read them as text; the other stored types stay binary.
import { describe, expect, it } from "vitest";
import { at, bundledDocument, deref } from "../support/document.ts";
import { signupTenant, useTestApp } from "../support/app.ts";

const t = useTestApp();

describe("downloadFile: text downloads are declared as text", () => {
  it("declares text/plain and text/csv as strings and the other stored types as binary", () => {
    for (const [path, method] of [
      ["/api/files/{fileId}", "get"],
      ["/api/employees/{employeeId}/documents/{documentId}/download", "get"],
    ] as const) {
      const response = deref(at(bundledDocument(), "paths", path, method, "responses", "200"));
      const content = response.content as Record<string, { schema: { format?: string } }>;
      expect(content["text/plain"].schema.format, path).toBeUndefined();
      expect(content["text/csv"].schema.format, path).toBeUndefined();
      expect(content["application/pdf"].schema.format, path).toBe("binary");
    }
  });

  it("serves an uploaded CSV as its text", async () => {
    const owner = await signupTenant(t);
    const csv = "employee_code,name\nACM-0042,Priya Raman\n";
    const up = await owner.agent.post("/api/upload").attach("file", Buffer.from(csv), { filename: "team.csv", contentType: "text/csv" });
    expect(up.status, JSON.stringify(up.body)).toBe(201);
    const res = await owner.agent.get(`/api/files/${up.body.data.id}`).buffer(true); // by hand: the bytes as sent
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^text\/csv/);
    expect(res.text).toBe(csv);
  });
});
