// Written by `make stubs`: operations of the document not implemented yet (501). Implement each in
// handlers.ts, then run `make stubs` again to drop it from here.
import { notImplemented } from "../../http/errors.ts";
import type { AreaHandlers } from "../../http/types.ts";

export const stubs = {
  // DELETE /api/attendance-regularization/{id}
  async cancelAttendanceRegularization() {
    throw notImplemented("cancelAttendanceRegularization");
  },
  // POST /api/attendance/check-in
  async checkIn() {
    throw notImplemented("checkIn");
  },
  // POST /api/attendance/check-out
  async checkOut() {
    throw notImplemented("checkOut");
  },
  // POST /api/attendance-regularization
  async createAttendanceRegularization() {
    throw notImplemented("createAttendanceRegularization");
  },
  // GET /api/attendance-regularization/{id}
  async getAttendanceRegularization() {
    throw notImplemented("getAttendanceRegularization");
  },
  // GET /api/configuration/attendance
  async getAttendanceSettings() {
    throw notImplemented("getAttendanceSettings");
  },
  // POST /api/attendance/import
  async importAttendance() {
    throw notImplemented("importAttendance");
  },
  // GET /api/attendance
  async listAttendance() {
    throw notImplemented("listAttendance");
  },
  // GET /api/attendance-regularization
  async listAttendanceRegularizations() {
    throw notImplemented("listAttendanceRegularizations");
  },
  // PUT /api/attendance-regularization/{id}
  async updateAttendanceRegularization() {
    throw notImplemented("updateAttendanceRegularization");
  },
  // POST /api/configuration/attendance
  async updateAttendanceSettings() {
    throw notImplemented("updateAttendanceSettings");
  },
} satisfies Partial<AreaHandlers<"attendance">>;
