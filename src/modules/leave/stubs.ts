// Written by `make stubs`: operations of the document not implemented yet (501). Implement each in
// handlers.ts, then run `make stubs` again to drop it from here.
import { notImplemented } from "../../http/errors.ts";
import type { AreaHandlers } from "../../http/types.ts";

export const stubs = {
  // DELETE /api/leave-encashments/{id}
  async cancelLeaveEncashment() {
    throw notImplemented("cancelLeaveEncashment");
  },
  // DELETE /api/wfh-requests/{id}
  async cancelWfhRequest() {
    throw notImplemented("cancelWfhRequest");
  },
  // DELETE /api/working-on-holiday/{id}
  async cancelWorkingOnHolidayRequest() {
    throw notImplemented("cancelWorkingOnHolidayRequest");
  },
  // POST /api/leave-encashments
  async createLeaveEncashment() {
    throw notImplemented("createLeaveEncashment");
  },
  // POST /api/wfh-requests
  async createWfhRequest() {
    throw notImplemented("createWfhRequest");
  },
  // POST /api/working-on-holiday
  async createWorkingOnHolidayRequest() {
    throw notImplemented("createWorkingOnHolidayRequest");
  },
  // GET /api/leave-encashments/{id}
  async getLeaveEncashment() {
    throw notImplemented("getLeaveEncashment");
  },
  // GET /api/wfh-requests/{id}
  async getWfhRequest() {
    throw notImplemented("getWfhRequest");
  },
  // GET /api/working-on-holiday/{id}
  async getWorkingOnHolidayRequest() {
    throw notImplemented("getWorkingOnHolidayRequest");
  },
  // GET /api/leave-encashments
  async listLeaveEncashments() {
    throw notImplemented("listLeaveEncashments");
  },
  // GET /api/wfh-requests
  async listWfhRequests() {
    throw notImplemented("listWfhRequests");
  },
  // GET /api/working-on-holiday
  async listWorkingOnHolidayRequests() {
    throw notImplemented("listWorkingOnHolidayRequests");
  },
  // PUT /api/leave-encashments/{id}
  async updateLeaveEncashment() {
    throw notImplemented("updateLeaveEncashment");
  },
  // PUT /api/wfh-requests/{id}
  async updateWfhRequest() {
    throw notImplemented("updateWfhRequest");
  },
  // PUT /api/working-on-holiday/{id}
  async updateWorkingOnHolidayRequest() {
    throw notImplemented("updateWorkingOnHolidayRequest");
  },
} satisfies Partial<AreaHandlers<"leave">>;
