// Privacy test fixtures: salary slips of a given month written straight into the tables (the
// retention schedule looks at their pay period only), and a loopback webhook receiver.
import http from "node:http";
import type { TestContext } from "../support/app.ts";

/** A processed run of `month` (YYYY-MM) and one salary slip of the employee in it; the slip's id. */
export async function insertSlip(t: TestContext, tenantId: string, employeeId: string, month: string): Promise<string> {
  const [y, m] = month.split("-").map(Number);
  const start = `${month}-01`;
  const end = new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
  const [run] = await t.query<{ id: string }>(
    `INSERT INTO payroll_runs (tenant_id, period_year, period_month, period_start, period_end, status, employee_ids, employee_count)
     VALUES ($1, $2, $3, $4, $5, 'processed', ARRAY[$6]::uuid[], 1) RETURNING id`,
    [tenantId, y, m, start, end, employeeId],
  );
  const [slip] = await t.query<{ id: string }>(
    `INSERT INTO payroll_slips (tenant_id, run_id, employee_id, slip_number, employee_code, employee_name, department, designation,
       pay_start, pay_end, days_in_period, payable_days, lop_days, gross, total_deductions, net_pay, pf_employee, esi_employee,
       professional_tax, loan_deduction, reimbursements, leave_encashment, employer_cost, details)
     SELECT $1, $2, e.id, 'SLIP-' || $5 || '-' || substr(e.id::text, 1, 8), e.employee_code, e.first_name || ' ' || e.last_name,
            e.department, e.designation, $3, $4, 30, 30, 0, 50000, 1800, 48200, 1800, 0, 0, 0, 0, 0, 53600, '{}'::jsonb
       FROM employees e WHERE e.tenant_id = $1 AND e.id = $6 RETURNING id`,
    [tenantId, run.id, start, end, month, employeeId],
  );
  return slip.id;
}

export interface Receiver {
  url: string;
  bodies: () => { type: string; data: { id: string; entity_type: string; changes: Record<string, any> } }[];
  close: () => Promise<void>;
}

/** An HTTP server on loopback that answers 200 and keeps every body it receives. */
export async function startReceiver(): Promise<Receiver> {
  const got: string[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      got.push(Buffer.concat(chunks).toString("utf8"));
      res.writeHead(200).end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}/hook`,
    bodies: () => got.map((b) => JSON.parse(b)),
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
