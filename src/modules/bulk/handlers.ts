// Bulk: imports (imports.ts) and exports (exports.ts) of employees, holidays, attendance, leave
// allocations and salary setups; what each kind is in kinds.ts. Handlers translate HTTP to one use
// case and back.
import { accepted, created, ok } from "../../http/envelope.ts";
import type { AreaHandlers } from "../../http/types.ts";
import { exportFormat, streamExport } from "./exports.ts";
import { importById, startImport } from "./imports.ts";

const reply = (o: Awaited<ReturnType<typeof startImport>>) =>
  o.status === 202
    ? accepted(o.data, "Import queued")
    : o.status === 201
      ? created(o.data, "Imported")
      : ok(o.data, "Dry run: no problems found; nothing was written");

export const handlers = {
  async importEmployees({ query, body, auth }) {
    return reply(await startImport(auth, "employees", query, body));
  },
  async importHolidays({ query, body, auth }) {
    return reply(await startImport(auth, "holidays", query, body));
  },
  async importAttendanceRecords({ query, body, auth }) {
    return reply(await startImport(auth, "attendance", query, body));
  },
  async importLeaveAllocations({ query, body, auth }) {
    return reply(await startImport(auth, "leave_allocations", query, body));
  },
  async importSalarySetups({ query, body, auth }) {
    return reply(await startImport(auth, "salary_setups", query, body));
  },
  async getImport({ params }) {
    return ok(await importById(params.id));
  },

  async exportEmployees({ query, req, res }) {
    const { format, ...filter } = query;
    await streamExport(res, "employees", exportFormat(format, req.headers.accept), filter);
    return { sent: true as const };
  },
  async exportHolidays({ query, req, res }) {
    const { format, ...filter } = query;
    await streamExport(res, "holidays", exportFormat(format, req.headers.accept), filter);
    return { sent: true as const };
  },
  async exportAttendanceRecords({ query, req, res }) {
    const { format, ...filter } = query;
    await streamExport(res, "attendance", exportFormat(format, req.headers.accept), filter);
    return { sent: true as const };
  },
  async exportLeaveAllocations({ query, req, res }) {
    const { format, ...filter } = query;
    await streamExport(res, "leave_allocations", exportFormat(format, req.headers.accept), filter);
    return { sent: true as const };
  },
  async exportSalarySetups({ query, req, res }) {
    const { format, ...filter } = query;
    await streamExport(res, "salary_setups", exportFormat(format, req.headers.accept), filter);
    return { sent: true as const };
  },
} satisfies Partial<AreaHandlers<"bulk">>;
