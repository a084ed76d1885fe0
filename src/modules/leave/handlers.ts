// Leave area: each handler turns HTTP into one use case call (the sibling modules hold the rules) and back.
import { ack, created, listed, ok, sendListedJson } from "../../http/envelope.ts";
import type { AreaHandlers } from "../../http/types.ts";
import { allocateLeave, allocationPage } from "./allocations.ts";
import { adjustBalance, balancePage, ledgerList } from "./balances.ts";
import { decideEncashment, encashmentById, encashmentPage, requestEncashment, withdrawEncashment } from "./encashments.ts";
import {
  decideHolidayWorkClaim,
  holidayWorkById,
  holidayWorkPage,
  submitHolidayWorkClaim,
  withdrawHolidayWorkClaim,
} from "./holiday-work.ts";
import { addHoliday, addHolidays, changeHoliday, holidayById, holidayPage, removeHoliday } from "./holidays.ts";
import { addLeaveType, changeLeaveType, leaveTypeById, leaveTypePage, removeLeaveType } from "./leave-types.ts";
import { addPeriod, changePeriod, periodById, periodPage, removePeriod } from "./periods.ts";
import { addPolicy, changePolicy, policyById, policyPage, removePolicy } from "./policies.ts";
import { decideLeaveRequest, leaveRequestById, leaveRequestList, submitLeaveRequest, withdrawLeaveRequest } from "./requests.ts";
import { decideWfhRequest, submitWfhRequest, wfhRequestById, wfhRequestPage, withdrawWfhRequest } from "./wfh.ts";

export const handlers = {
  // ── leave types
  async listLeaveTypes({ operationId, query }) {
    const r = await leaveTypePage(query);
    return listed(operationId, r);
  },
  async createLeaveType({ body }) {
    return created(await addLeaveType(body), "Leave type created");
  },
  async getLeaveType({ params }) {
    return ok(await leaveTypeById(params.id));
  },
  async updateLeaveType({ params, body }) {
    return ok(await changeLeaveType(params.id, body), "Leave type updated");
  },
  async deleteLeaveType({ params }) {
    await removeLeaveType(params.id);
    return ack("Leave type deleted");
  },

  // ── periods
  async listLeavePeriods({ operationId, query }) {
    const r = await periodPage(query);
    return listed(operationId, r);
  },
  async createLeavePeriod({ body }) {
    return created(await addPeriod(body), "Leave period created");
  },
  async getLeavePeriod({ params }) {
    return ok(await periodById(params.id));
  },
  async updateLeavePeriod({ params, body }) {
    return ok(await changePeriod(params.id, body), "Leave period updated");
  },
  async deleteLeavePeriod({ params }) {
    await removePeriod(params.id);
    return ack("Leave period deleted");
  },

  // ── policies
  async listLeavePolicies({ operationId, query }) {
    const r = await policyPage(query);
    return listed(operationId, r);
  },
  async createLeavePolicy({ body }) {
    return created(await addPolicy(body), "Leave policy created");
  },
  async getLeavePolicy({ params }) {
    return ok(await policyById(params.id));
  },
  async updateLeavePolicy({ params, body }) {
    return ok(await changePolicy(params.id, body), "Leave policy updated");
  },
  async deleteLeavePolicy({ params }) {
    await removePolicy(params.id);
    return ack("Leave policy deleted");
  },

  // ── holidays
  async listHolidays({ operationId, query }) {
    const r = await holidayPage(query);
    return listed(operationId, r);
  },
  async createHoliday({ body }) {
    return created(await addHoliday(body), "Holiday created");
  },
  async createHolidaysBulk({ body }) {
    const rows = await addHolidays(body);
    return created(rows, `${rows.length} holidays created`);
  },
  async getHoliday({ params }) {
    return ok(await holidayById(params.id));
  },
  async updateHoliday({ params, body }) {
    return ok(await changeHoliday(params.id, body), "Holiday updated");
  },
  async deleteHoliday({ params }) {
    await removeHoliday(params.id);
    return ack("Holiday deleted");
  },

  // ── allocations, balances, ledger
  async listLeaveAllocations({ operationId, query, auth }) {
    const r = await allocationPage(auth, query);
    return listed(operationId, r);
  },
  async createLeaveAllocations({ body, auth }) {
    const r = await allocateLeave(auth, body);
    return created(r, `${r.created_count} allocations created, ${r.skipped_count} skipped`);
  },
  async listLeaveBalances({ operationId, query, auth, res }) {
    const r = await balancePage(auth, query);
    return sendListedJson(res, operationId, r.rowsJson, r.page, r.total);
  },
  async listLeaveLedger({ operationId, query, auth, walk }) {
    return listed(operationId, await ledgerList(auth, query, walk));
  },
  async createLeaveAdjustment({ body, auth }) {
    return created(await adjustBalance(auth, body), "Balance adjusted");
  },

  // ── leave requests
  async listLeaveRequests({ operationId, query, auth, walk }) {
    return listed(operationId, await leaveRequestList(auth, query, walk));
  },
  async createLeaveRequest({ body, auth }) {
    return created(await submitLeaveRequest(auth, body), "Leave request submitted");
  },
  async getLeaveRequest({ params, auth }) {
    return ok(await leaveRequestById(auth, params.id));
  },
  async updateLeaveRequest({ params, body, auth }) {
    return ok(await decideLeaveRequest(auth, params.id, body), `Leave request ${body.status}`);
  },
  async cancelLeaveRequest({ params, auth }) {
    return ok(await withdrawLeaveRequest(auth, params.id), "Leave request cancelled");
  },

  // ── work from home
  async listWfhRequests({ operationId, query, auth }) {
    const r = await wfhRequestPage(auth, query);
    return listed(operationId, r);
  },
  async createWfhRequest({ body, auth }) {
    return created(await submitWfhRequest(auth, body), "Work-from-home request submitted");
  },
  async getWfhRequest({ params, auth }) {
    return ok(await wfhRequestById(auth, params.id));
  },
  async updateWfhRequest({ params, body, auth }) {
    return ok(await decideWfhRequest(auth, params.id, body), `Work-from-home request ${body.status}`);
  },
  async cancelWfhRequest({ params, auth }) {
    return ok(await withdrawWfhRequest(auth, params.id), "Work-from-home request cancelled");
  },

  // ── working on holidays (compensatory leave)
  async listWorkingOnHolidayRequests({ operationId, query, auth }) {
    const r = await holidayWorkPage(auth, query);
    return listed(operationId, r);
  },
  async createWorkingOnHolidayRequest({ body, auth }) {
    return created(await submitHolidayWorkClaim(auth, body), "Claim submitted");
  },
  async getWorkingOnHolidayRequest({ params, auth }) {
    return ok(await holidayWorkById(auth, params.id));
  },
  async updateWorkingOnHolidayRequest({ params, body, auth }) {
    return ok(await decideHolidayWorkClaim(auth, params.id, body), `Claim ${body.status}`);
  },
  async cancelWorkingOnHolidayRequest({ params, auth }) {
    return ok(await withdrawHolidayWorkClaim(auth, params.id), "Claim cancelled");
  },

  // ── encashment
  async listLeaveEncashments({ operationId, query, auth }) {
    const r = await encashmentPage(auth, query);
    return listed(operationId, r);
  },
  async createLeaveEncashment({ body, auth }) {
    return created(await requestEncashment(auth, body), "Encashment requested");
  },
  async getLeaveEncashment({ params, auth }) {
    return ok(await encashmentById(auth, params.id));
  },
  async updateLeaveEncashment({ params, body, auth }) {
    return ok(await decideEncashment(auth, params.id, body), `Encashment ${body.status}`);
  },
  async cancelLeaveEncashment({ params, auth }) {
    return ok(await withdrawEncashment(auth, params.id), "Encashment cancelled");
  },
} satisfies Partial<AreaHandlers<"leave">>;
