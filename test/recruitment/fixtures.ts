// Recruitment test fixtures: a company with the module on and its people, and factories that
// walk records through the API (requisition → posting → candidate → interview → offer).
import { inflateSync } from "node:zlib";
import { expect } from "vitest";
import { createEmployee } from "../support/employees.ts";
import { addMember, signupTenant, type TenantSession, type TestContext } from "../support/app.ts";
import * as clock from "../../src/lib/clock.ts";
import { addDays } from "../../src/lib/dates.ts";
import { today } from "../support/clock.ts";
import { api } from "../support/api.ts";

export interface Company {
  owner: TenantSession;
  hr: TenantSession;
  manager: TenantSession;
  managerEmployeeId: string;
  employee: TenantSession;
}

/** A company with the recruitment module, an hr member, a manager linked to an Engineering employee, and an employee. */
export async function recruitingCompany(t: TestContext, opts: { company?: string } = {}): Promise<Company> {
  const owner = await signupTenant(t, { company: opts.company });
  await api(owner.agent)
    .op("updateCompanySettings", { body: { modules: ["recruitment"] } })
    .expect(200);
  const hr = await addMember(t, owner, "hr", { name: "Hema HR" });
  const mgrEmp = await createEmployee(owner, { department: "Engineering", designation: "Engineering Manager" });
  const manager = await addMember(t, owner, "manager", { name: "Manoj Manager", employeeId: mgrEmp.id });
  const employee = await addMember(t, owner, "employee", { name: "Esha Employee" });
  return { owner, hr, manager, managerEmployeeId: mgrEmp.id, employee };
}

/** `days` from now by the server's clock (src/lib/clock.ts), at `hour` UTC. */
export const isoIn = (days: number, hour = 10) => {
  const d = new Date(clock.nowMs() + days * 86_400_000);
  d.setUTCHours(hour, 0, 0, 0);
  return d.toISOString();
};
/** The tenant's today (the server's clock, in its time zone) plus `days`. */
export const dateIn = (days: number) => addDays(today(), days);

let n = 0;
export const uniq = () => `${process.pid}${Date.now()}${n++}`;

export async function approvedRequisition(agent: TenantSession["agent"], overrides: Record<string, unknown> = {}) {
  const r = await api(agent).op("createJobRequisition", {
    body: { title: "Backend Engineer", department: "Engineering", positions: 2, status: "pending_approval", ...overrides },
  });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  const a = await api(agent).op("updateJobRequisition", { params: { id: r.body.data.id }, body: { status: "approved" } });
  expect(a.status, JSON.stringify(a.body)).toBe(200);
  return a.body.data;
}

export async function openPosting(agent: TenantSession["agent"], overrides: Record<string, unknown> = {}) {
  const req = await approvedRequisition(agent, overrides.department ? { department: overrides.department } : {});
  const p = await api(agent).op("createJobPosting", {
    body: {
      requisition_id: req.id,
      description: "Build and run our services.",
      requirements: "4+ years with TypeScript and Node.js. Strong PostgreSQL. Docker is a plus.",
      skills: ["TypeScript", "Node.js", "PostgreSQL"],
      status: "open",
      ...overrides,
    },
  });
  expect(p.status, JSON.stringify(p.body)).toBe(201);
  return p.body.data;
}

export async function addCandidate(agent: TenantSession["agent"], postingId: string, overrides: Record<string, unknown> = {}) {
  const id = uniq();
  const c = await api(agent).op("createCandidate", {
    body: {
      posting_id: postingId,
      first_name: "Priya",
      last_name: `Sharma${id}`,
      email: `priya.${id}@example.test`,
      resume_text: "Backend engineer with 6 years of experience in TypeScript, Node.js, PostgreSQL and Redis.",
      skills: ["typescript", "node.js"],
      ...overrides,
    },
  });
  expect(c.status, JSON.stringify(c.body)).toBe(201);
  return c.body.data;
}

/** Moves a candidate forward one stage at a time until `stage` (applied → screening → interview → offer). */
export async function advance(agent: TenantSession["agent"], candidateId: string, to: "screening" | "interview" | "offer") {
  const order = ["applied", "screening", "interview", "offer"];
  const cur = (
    await api(agent)
      .op("getCandidate", { params: { id: candidateId } })
      .expect(200)
  ).body.data.stage;
  for (let i = order.indexOf(cur) + 1; i <= order.indexOf(to); i++) {
    const r = await agent.put(`/api/recruitment/candidates/${candidateId}`).send({ stage: order[i] });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
  }
}

/** A candidate in `interview` with a draft offer. */
export async function draftOffer(
  agent: TenantSession["agent"],
  overrides: Record<string, unknown> = {},
  candidateOverrides: Record<string, unknown> = {},
) {
  const posting = await openPosting(agent);
  const candidate = await addCandidate(agent, posting.id, candidateOverrides);
  await advance(agent, candidate.id, "interview");
  const o = await api(agent).op("createJobOffer", {
    body: { candidate_id: candidate.id, salary: "2400000.00", joining_date: dateIn(30), expires_on: dateIn(7), ...overrides },
  });
  expect(o.status, JSON.stringify(o.body)).toBe(201);
  return { posting, candidate, offer: o.body.data };
}

/** Supertest: collect a binary body as a Buffer. */
export function binary(res: any, cb: (err: Error | null, body: Buffer) => void) {
  const chunks: Buffer[] = [];
  res.on("data", (c: Buffer) => chunks.push(c));
  res.on("end", () => cb(null, Buffer.concat(chunks)));
}

/** The text drawn in a pdfkit PDF: inflates the content streams and decodes the TJ hex strings. */
export function pdfText(pdf: Buffer): string {
  const raw = pdf.toString("latin1");
  let out = "";
  const re = /stream\r?\n/g;
  for (let m = re.exec(raw); m; m = re.exec(raw)) {
    const start = m.index + m[0].length;
    const end = raw.indexOf("endstream", start);
    if (end < 0) break;
    const bytes = pdf.subarray(start, end);
    let content: string;
    try {
      content = inflateSync(bytes).toString("latin1");
    } catch {
      content = bytes.toString("latin1");
    }
    for (const tj of content.match(/\[(.*?)\]\s*TJ/g) ?? []) {
      out += `${[...tj.matchAll(/<([0-9a-fA-F]+)>/g)].map((h) => Buffer.from(h[1], "hex").toString("latin1")).join("")}\n`;
    }
  }
  return out;
}

/** The candidate's consent to the AI screening of their CV, as their privacy page records it (src/modules/recruitment/consents.ts). */
export async function consentToScreening(t: TestContext, tenantId: string, candidateId: string): Promise<void> {
  await t.query(`INSERT INTO candidate_consents (tenant_id, candidate_id, purpose, given_at) VALUES ($1, $2, 'ai_screening', now())`, [
    tenantId,
    candidateId,
  ]);
}
