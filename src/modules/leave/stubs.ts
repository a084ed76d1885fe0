// Written by `make stubs`: operations of the document not implemented yet (501). Implement each in
// handlers.ts, then run `make stubs` again to drop it from here.
import { notImplemented } from "../../http/errors.ts";
import type { AreaHandlers } from "../../http/types.ts";

export const stubs = {
  // DELETE /api/leave-encashments/{id}
  async cancelLeaveEncashment() {
    throw notImplemented("cancelLeaveEncashment");
  },
  // DELETE /api/leave-requests/{id}
  async cancelLeaveRequest() {
    throw notImplemented("cancelLeaveRequest");
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
  // POST /api/leave-requests
  async createLeaveRequest() {
    throw notImplemented("createLeaveRequest");
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
  // GET /api/leave-requests/{id}
  async getLeaveRequest() {
    throw notImplemented("getLeaveRequest");
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
  // GET /api/leave-requests
  async listLeaveRequests() {
    throw notImplemented("listLeaveRequests");
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
  // PUT /api/leave-requests/{id}
  async updateLeaveRequest() {
    throw notImplemented("updateLeaveRequest");
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
