// What can be imported and exported, kind by kind: the single create operation whose body a row is
// (its JSON Schema checks the row, its use case writes it - through the owning area's index.ts,
// so an imported row obeys exactly the rules of a single POST), and the export's reader.
import type { AuthContext, RequestBody } from "../../platform/use-case.ts";
import {
  addHoliday,
  allocateLeave,
  ALLOCATION_EXPORT_COLUMNS,
  allocationsForExport,
  HOLIDAY_EXPORT_COLUMNS,
  holidaysForExport,
} from "../leave/index.ts";
import { ATTENDANCE_EXPORT_COLUMNS, attendanceForExport, importRecordsIn } from "../attendance/index.ts";
import { createEmployeesIn, EMPLOYEE_EXPORT_COLUMNS, employeesForExport } from "../employees/index.ts";
import { SALARY_SETUP_EXPORT_COLUMNS, salarySetupsForExport, saveSalarySetup } from "../payroll/index.ts";
import type { ScopedTx } from "../../db/tenancy.ts";
import type { Row } from "./rows.ts";

export type KindName = "employees" | "holidays" | "attendance" | "leave_allocations" | "salary_setups";

/** What a row created or changed: the record's id (as its export shows it) and an employee's code. */
export interface Written {
  id: string;
  code?: string | null;
}

/** A refused row of a batch writer: its index in the batch. */
export interface BatchProblem {
  index: number;
  field: string | null;
  message: string;
}

export interface Kind {
  name: KindName;
  /** in messages: "an employees row" */
  label: string;
  /** the single create operation whose request body a row is */
  createPath: string;
  createMethod: "post" | "put";
  /** the row is one element of the body's `records` */
  rowOf?: "records.items";
  /** a property the row has beside the body (the path parameter of the create) */
  extraKey?: string;
  /** list properties: JSON values in JSON rows, JSON text in a CSV cell (as the export writes them) */
  jsonOnly?: string[];
  /** writes one row by the single create's use case (in the import's transaction; throws AppError) */
  writeOne?: (auth: AuthContext, row: Row) => Promise<Written[]>;
  /** writes a batch of valid rows at once in `tx`, the refused ones returned (faster than row by row) */
  writeBatch?: (
    tx: ScopedTx,
    auth: AuthContext,
    rows: Row[],
  ) => Promise<{ problems: BatchProblem[]; records: (Written & { index: number })[] }>;
  exportColumns: readonly string[];
  exportRows: (filter: Record<string, string | undefined>, after: string | null, limit: number) => Promise<Record<string, unknown>[]>;
}

export const KINDS: Record<KindName, Kind> = {
  employees: {
    name: "employees",
    label: "an employees row",
    createPath: "/api/employees",
    createMethod: "post",
    writeBatch: async (tx, _auth, rows) => createEmployeesIn(tx, rows as RequestBody<"createEmployee">[]),
    exportColumns: EMPLOYEE_EXPORT_COLUMNS,
    exportRows: employeesForExport,
  },
  holidays: {
    name: "holidays",
    label: "a holidays row",
    createPath: "/api/holidays",
    createMethod: "post",
    writeOne: async (_auth, row) => [{ id: (await addHoliday(row as RequestBody<"createHoliday">)).id }],
    exportColumns: HOLIDAY_EXPORT_COLUMNS,
    exportRows: holidaysForExport,
  },
  attendance: {
    name: "attendance",
    label: "an attendance row",
    createPath: "/api/attendance/import",
    createMethod: "post",
    rowOf: "records.items",
    // a batch at a time by importAttendance's rules (the records of the batch in one statement)
    writeBatch: async (tx, auth, rows) => importRecordsIn(tx, auth, rows as RequestBody<"importAttendance">["records"]),
    exportColumns: ATTENDANCE_EXPORT_COLUMNS,
    exportRows: attendanceForExport,
  },
  leave_allocations: {
    name: "leave_allocations",
    label: "a leave allocations row",
    createPath: "/api/leave-allocations",
    createMethod: "post",
    // a row by policy may allocate several leave types: one entry each
    writeOne: async (auth, row) =>
      (await allocateLeave(auth, row as RequestBody<"createLeaveAllocations">)).allocations.map((a) => ({ id: a.id })),
    exportColumns: ALLOCATION_EXPORT_COLUMNS,
    exportRows: allocationsForExport,
  },
  salary_setups: {
    name: "salary_setups",
    label: "a salary setups row",
    createPath: "/api/payroll/employee-setup/{employeeId}",
    createMethod: "put",
    extraKey: "employee_id",
    jsonOnly: ["components"],
    writeOne: async (auth, row) => {
      const { employee_id, ...body } = row;
      const setup = await saveSalarySetup(auth, employee_id as string, body as RequestBody<"setEmployeeSalarySetup">);
      // the version of the row's effective date (a row replaces the version of its date)
      const version = setup.history.find((v) => v.effective_from === body.effective_from);
      return version ? [{ id: version.id }] : [];
    },
    exportColumns: SALARY_SETUP_EXPORT_COLUMNS,
    exportRows: salarySetupsForExport,
  },
};
