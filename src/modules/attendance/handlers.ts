// Attendance: the day-by-day view (stored records plus derived days), self-service check-in/out,
// hr imports, regularization requests and the attendance settings. Each handler translates HTTP
// to one use case (days.ts, punches.ts, regularizations.ts, settings.ts) and back.
import { created, listed, ok, pageOf } from "../../http/envelope.ts";
import type { AreaHandlers } from "../../http/types.ts";
import { attendanceDays } from "./days.ts";
import { importRecords } from "./bulk.ts";
import { punchIn, punchOut } from "./punches.ts";
import {
  regularizationById,
  regularizationPage,
  reviseRegularization,
  submitRegularization,
  withdrawRegularization,
} from "./regularizations.ts";
import { attendanceSettings, changeAttendanceSettings } from "./settings.ts";

export const handlers = {
  async listAttendance({ operationId, query, auth }) {
    const page = pageOf(query);
    const { days, total } = await attendanceDays(auth, query, page);
    return listed(operationId, { rows: days, page, total });
  },

  async checkIn({ body, auth }) {
    const record = await punchIn(auth, body?.notes);
    return ok(record, record.late ? "Checked in (late)" : "Checked in");
  },

  async checkOut({ body, auth }) {
    return ok(await punchOut(auth, body?.notes), "Checked out");
  },

  async importAttendance({ body, auth }) {
    const { created, updated } = await importRecords(auth, body);
    return ok({ created, updated }, `${created} records created, ${updated} updated`);
  },

  async listAttendanceRegularizations({ operationId, query, auth }) {
    const page = pageOf(query);
    const { rows, total } = await regularizationPage(auth, query, page);
    return listed(operationId, { rows, page, total });
  },

  async createAttendanceRegularization({ body, auth }) {
    return created(await submitRegularization(auth, body), "Regularization submitted");
  },

  async getAttendanceRegularization({ params, auth }) {
    return ok(await regularizationById(auth, params.id));
  },

  async updateAttendanceRegularization({ params, body, auth }) {
    const { regularization, outcome } = await reviseRegularization(auth, params.id, body);
    return ok(regularization, `Regularization ${outcome}`);
  },

  async cancelAttendanceRegularization({ params, auth }) {
    return ok(await withdrawRegularization(auth, params.id), "Regularization cancelled");
  },

  async getAttendanceSettings() {
    return ok(await attendanceSettings());
  },

  async updateAttendanceSettings({ body }) {
    return ok(await changeAttendanceSettings(body), "Attendance settings updated");
  },
} satisfies Partial<AreaHandlers<"attendance">>;
