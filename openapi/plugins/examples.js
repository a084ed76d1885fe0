// Realistic examples for the strings of the document (the decorator hrms/examples of hrms.js):
// the API reference (/docs) and mock servers render a schema's `example`, and without one they
// make up `string`, today's date or a random match of a pattern (a period like `6344-05`). Every
// string property without an example, enum or const gets one here - by the schema it belongs to
// and its name (`Employee.name` "Priya Sharma", `LeaveType.name` "Casual Leave"), else its name
// alone, else its format (uuid, date, date-time, email, uri). A candidate is used only when it
// satisfies the schema's pattern, minLength and maxLength; otherwise the next one is tried, and a
// string left without one fails test/proof/examples.test.ts (which also validates every example
// of the document against its schema and builds a mock answer of each operation from them).
import { createHash } from "node:crypto";

/** A stable UUID (version 4 layout) for an identifier's name: the same `employee_id` everywhere. */
export function exampleUuid(name) {
  const h = createHash("sha256").update(`hrms-example:${name}`).digest("hex");
  const variant = "89ab"[Number.parseInt(h[16], 16) % 4];
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

const PERSON = "Priya Sharma";
const COMPANY = "Acme Technologies Pvt Ltd";

/** `<Schema family>.<property>`: the family is the component's name without Create/Update/Input/Request. */
const BY_SCHEMA = {
  "AiProvider.name": "OpenAI",
  "AiProvider.model": "gpt-4o-mini",
  "Asset.name": "MacBook Pro 14 (M3)",
  "AssetCategory.name": "Laptops",
  "AssetCategory.description": "Company laptops issued to employees",
  "Branch.name": "Bengaluru Head Office",
  "Branch.code": "BLR-HO",
  "CompanySettings.name": COMPANY,
  "ExpenseCategory.name": "Travel",
  "ExpenseCategory.description": "Flights, trains, cabs and hotel stays on company work",
  "Holiday.name": "Diwali",
  "Holiday.description": "Festival of lights",
  "InterviewRound.name": "Technical interview",
  "Interviewer.name": "Rahul Verma",
  "LeavePeriod.name": "FY 2026-27",
  "LeavePolicy.name": "Standard leave policy",
  "LeavePolicy.description": "Casual, sick and earned leave for full-time employees",
  "LeaveType.name": "Casual Leave",
  "LeaveType.code": "CL",
  "LeaveType.description": "Short personal leave, planned or at short notice",
  "LoanType.name": "Salary advance",
  "LoanType.description": "An advance on salary, recovered in monthly installments",
  "SalaryComponent.name": "House Rent Allowance",
  "SalaryComponent.code": "HRA",
  "SalaryComponent.description": "40% of basic pay, tax-exempt within the limits of section 10(13A)",
  "SalarySetupLine.name": "House Rent Allowance",
  "SalarySetupLine.code": "HRA",
  "SalarySlipLine.name": "House Rent Allowance",
  "SalarySlipLine.code": "HRA",
  "WorkLocation.name": "Koramangala office",
  "AiJobDescription.title": "Senior Backend Engineer",
  "AiJobDescription.description": "Build and run the services behind our HR platform.",
  "AppointmentDocument.title": "Signed offer letter",
  "DocumentTemplatePreview.title": "Offer letter",
  "EmployeeDocument.title": "PAN card",
  "HelpdeskTicket.title": "Laptop does not connect to the office Wi-Fi",
  "HelpdeskTicket.description": "Since this morning the laptop cannot join the office network; other devices can.",
  "HelpdeskTicket.category": "IT",
  "InterviewSession.title": "Campus hiring drive - day 1",
  "JobPosting.title": "Senior Backend Engineer",
  "JobPosting.description": "Build and run the services behind our HR platform, in TypeScript and PostgreSQL.",
  "JobRequisition.title": "Senior Backend Engineer",
  "JobRequisition.description": "A second backend engineer for the payroll team.",
  "Notification.title": "Leave request approved",
  "Notification.body": "Your casual leave from 2026-11-25 to 2026-11-27 was approved.",
  "Notification.link": "/leave/requests/3b241101-e2bb-4255-8caf-4136c566a962",
  "HelpdeskMessage.body": "Restarted the laptop and the issue persists.",
  "AiInterviewQuestion.category": "technical",
  "AiInterviewQuestion.question": "How would you design an idempotent payment webhook handler?",
  "AiInterviewQuestion.skill": "API design",
  "AiInterviewQuestion.what_to_look_for": "Idempotency keys, retries, signature checks and a clear audit trail.",
  "AiContent.subject": "Your application for Senior Backend Engineer",
  "AiContent.content": "Dear Priya, thank you for your interest in the Senior Backend Engineer role.",
  "AiContent.type": "rejection_email",
  "AiJobDescription.summary": "A senior engineer to build the payroll and leave services.",
  "AiResumeScreening.summary": "Strong TypeScript and PostgreSQL experience; no payroll domain experience.",
  "Error.details": "Expected a date in the form YYYY-MM-DD",
  "AiContent.details": "Mention the two interview rounds and thank the candidate for their time.",
  "AuditLogEntry.action": "leave_request.approved",
  "AuditLogEntry.entity_type": "leave_request",
  "Asset.notes": "Bought with a three-year warranty",
  "AssetAssignment.notes": "Handed over with charger and sleeve",
  "AssetReturnRequest.reason": "Upgrading to a new laptop",
  "AssetDamageReport.description": "Screen cracked after a fall from the desk",
  "AssetDamageReport.resolution_notes": "Screen replaced by the service centre under warranty",
  "AssetReturnRequest.decision_notes": "Approved; hand it to IT on Friday",
  "LoanDeferral.reason": "Wedding in the family this month",
  "Attendance.notes": "Working from the Koramangala office today",
  "AttendanceRecord.notes": "Working from the Koramangala office today",
  "AttendanceRegularization.reason": "Forgot to check out after the client call",
  "AttendanceRegularization.comment": "Matches the access-card log, approved",
  "BillingEvent.type": "customer.subscription.updated",
  "BillingEvent.id": "evt_1QxYz2AbCdEfGh",
  "Candidate.notes": "Referred by Rahul Verma; strong on system design",
  "TalentPoolCandidate.notes": "Strong on system design; keep in mind for the next backend opening",
  "EmployeeExit.reason": "Moving to Pune to be closer to family",
  "Resignation.reason": "Moving to Pune to be closer to family",
  "LeaveAllocation.notes": "Opening balance for FY 2026-27",
  "LeaveLedgerEntry.reason": "Correction of the opening balance",
  "LeaveAdjustment.reason": "Correction of the opening balance",
  "LeaveEncashment.reason": "Encashing unused earned leave at year end",
  "LoanAdvance.reason": "Medical expenses of a parent",
  "PayrollRun.notes": "November payroll, includes the Diwali bonus",
  "PayrollRun.period_start": "2026-11-01",
  "PayrollRun.period_end": "2026-11-30",
  "SalarySetupVersion.notes": "Annual revision, April 2026",
  "EmployeeSalarySetup.notes": "Annual revision, April 2026",
  "WfhRequest.reason": "Plumber visiting at home in the morning",
  "WorkingOnHoliday.reason": "Quarter-end release on the holiday",
  "WorkingOnHolidayRequest.reason": "Quarter-end release on the holiday",
  "PublicJobOffer.reason": "Accepted another offer closer to home",
};

/** The family of the inline schemas of a path file (`api_assets.yaml`), by the file's name. */
const PATH_FAMILY = [
  [/^api_assets_damage-reports/, "AssetDamageReport"],
  [/^api_assets_return-requests/, "AssetReturnRequest"],
  [/^api_assets_assignments/, "AssetAssignment"],
  [/^api_assets/, "Asset"],
  [/^api_configuration_asset-categories/, "AssetCategory"],
  [/^api_helpdesk_tickets_\{id\}_messages/, "HelpdeskMessage"],
  [/^api_helpdesk_tickets/, "HelpdeskTicket"],
  [/^api_public_appointment/, "AppointmentDocument"],
  [/^api_public_offer/, "PublicJobOffer"],
  [/^api_employees_\{employeeId\}_documents/, "EmployeeDocument"],
  [/^api_employees_\{employeeId\}_resignation/, "Resignation"],
  [/^api_billing_webhook/, "BillingEvent"],
  [/^api_attendance_check/, "Attendance"],
  [/^api_payroll_loan-advances_\{id\}_defer/, "LoanDeferral"],
  [/^api_payroll_loan-advances/, "LoanAdvance"],
];

/** By property name alone (first candidate that fits the schema wins). */
const BY_NAME = {
  name: [PERSON, "Priya"],
  first_name: "Priya",
  last_name: "Sharma",
  full_name: PERSON,
  candidate_first_name: "Priya",
  email: "priya.sharma@example.com",
  actor_email: "anita.desai@example.com",
  candidate_email: "priya.sharma@example.com",
  password: "granite-otter-lantern-94",
  phone: "+91 98450 12345",
  address: "12 MG Road, Bengaluru 560001",
  city: "Bengaluru",
  state: "Karnataka",
  pt_state: "Karnataka",
  country: ["IN", "India"],
  timezone: "Asia/Kolkata",
  currency: "INR",
  company_name: COMPANY,
  legal_name: COMPANY,
  current_company: "Globex Software Pvt Ltd",
  department: "Engineering",
  departments: "Engineering",
  designation: "Senior Software Engineer",
  designations: "Senior Software Engineer",
  current_title: "Software Engineer",
  job_title: "Senior Backend Engineer",
  posting_title: "Senior Backend Engineer",
  title: "Senior Backend Engineer",
  employee_code: "EMP-0042",
  employment_type: "Full-time",
  location: "Bengaluru",
  description: "Agreed with the team lead in the weekly review",
  notes: "Agreed with the team lead",
  comment: "Approved, enjoy your time off.",
  decision_comment: "Approved, enjoy your time off.",
  decision_notes: "Approved within the budget of the quarter.",
  resolution_notes: "Replaced the Wi-Fi driver; connects again.",
  return_notes: "Returned in good condition with charger.",
  reason: "Family function in Jaipur",
  cancel_reason: "Plans changed",
  decline_reason: "Accepted another offer",
  rejection_reason: "Looking for more PostgreSQL experience",
  failure_reason: "The bank account of one employee is missing",
  calculation_error: "No salary setup for the period",
  justification: "The payroll team handles twice as many employees as a year ago.",
  instructions: "Bring a government photo ID and arrive 15 minutes early.",
  terms: "Joining bonus repayable if you leave within 12 months.",
  feedback: "Clear reasoning about transactions; would like deeper knowledge of indexing.",
  details: "Mention the two interview rounds.",
  message: "OK",
  body: "Restarted the laptop and the issue persists.",
  subject: "Your application for Senior Backend Engineer",
  content: "Dear Priya, thank you for applying.",
  summary: "Strong TypeScript and PostgreSQL experience.",
  question: "How would you design an idempotent payment webhook handler?",
  skill: "API design",
  what_to_look_for: "Idempotency keys, retries and signature checks.",
  requirements: "5+ years of TypeScript and PostgreSQL",
  job_requirements: "5+ years of TypeScript and PostgreSQL",
  resume_text: "Software engineer, 6 years: TypeScript, Node.js, PostgreSQL, payroll systems.",
  responsibilities: "Design and run the payroll services",
  nice_to_have: "Experience with Indian payroll compliance",
  keywords: "TypeScript",
  skills: "TypeScript",
  required_skills: "TypeScript",
  matched_skills: "TypeScript",
  missing_skills: "Kubernetes",
  additional_skills: "GraphQL",
  reasons: "Six years of backend experience",
  tags: "backend",
  template: "Dear {{candidate_name}}, we are pleased to offer you the role of {{job_title}}.",
  round_name: "Technical interview",
  category: "IT",
  category_name: "Laptops",
  asset_name: "MacBook Pro 14 (M3)",
  asset_tag: "LAP-2026-017",
  serial_number: "C02XK1ZQJGH5",
  holiday_name: "Diwali",
  leave_type: "Casual Leave",
  leave_type_name: "Casual Leave",
  leave_type_code: "CL",
  loan_type_name: "Salary advance",
  code: ["CL", "HRA"],
  type: "earning",
  status: "active",
  employee_name: PERSON,
  candidate_name: PERSON,
  requester_name: PERSON,
  requested_by_name: PERSON,
  assignee_name: "Rahul Verma",
  author_name: "Rahul Verma",
  decided_by_name: "Anita Desai",
  reported_by_name: PERSON,
  bank_name: "HDFC Bank",
  bank_account_number: "50100123456789",
  bank_ifsc: "HDFC0001234",
  bank_iban: "AE070331234567890123456",
  bank_routing_code: "302620122",
  labour_card_number: "12345678",
  employer_id: "1234567890123",
  employer_reference: "ACME-WPS-01",
  amount: "45000.00",
  attrition_rate: "4.50",
  days: ["1.5", "2.0", "2"],
  period: "2026-11",
  start_month: "2026-12",
  due_month: "2026-12",
  offer_number: "OFF-2026-0042",
  requisition_number: "REQ-2026-0007",
  claim_number: "EXP-2026-0131",
  loan_number: "LOAN-2026-0009",
  slip_number: "SLIP-2026-11-0042",
  settlement_number: "FS-00001",
  month: "2026-07",
  payable_days: "15.0",
  lop_days: "1.0",
  note: "Paid by the processed payroll run of July 2026",
  offer_expiry_date: "2026-12-05",
  formula: "BASIC * 0.40",
  purpose: "avatar",
  original_name: "offer-letter.pdf",
  mime_type: "application/pdf",
  sha256: "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
  meeting_url: "https://meet.example.com/acme-tech-interview",
  pdf_url: "/api/public/offer/Qm9vdHN0cmFwLXByb29mLXRva2VuLW5vdC1pc3N1ZWQ/pdf",
  upload_url: "/api/public/appointment/Qm9vdHN0cmFwLXByb29mLXRva2VuLW5vdC1pc3N1ZWQ/upload",
  download_path: "/api/files/3b241101-e2bb-4255-8caf-4136c566a962",
  link: "/leave/requests/3b241101-e2bb-4255-8caf-4136c566a962",
  path: "body.from_date",
  error: "Validation failed",
  token: "Qm9vdHN0cmFwLXByb29mLXRva2VuLW5vdC1pc3N1ZWQ",
  event_id: "evt_1QxYz2AbCdEfGh",
  ip: "203.0.113.7",
  action: "leave_request.approved",
  entity_type: "leave_request",
  model: "gpt-4o-mini",
  today: "2026-11-25",
};

/**
 * Dates and timestamps by name: a birthday in 2001 (every example date lies in 2000-2100), a
 * joining date in 2024, the rest around November 2026.
 */
const DATE_BY_NAME = [
  [/birth/, "2001-06-14"],
  // a request's days (leave, work from home: 1.5 days) fit from 25 to 26 November
  [/^to_date$/, "2026-11-26"],
  [/joining|joined|hire|purchase|effective|valid_from/, "2024-04-01"],
  [
    /^(to_|end|pay_end|period_end|last_working|returned|expected_return|warranty|expires|expiry|closes|target|carry_forward|comp_off)/,
    "2026-12-31",
  ],
  [/./, "2026-11-25"],
];
const DATE_TIME_BY_NAME = [
  [/created|submitted|queued|requested/, "2026-11-20T09:15:00.000Z"],
  [/expires|due|deadline|scheduled|check_out/, "2026-11-27T17:30:00.000Z"],
  [/check_in/, "2026-11-25T03:45:00.000Z"],
  [/./, "2026-11-25T10:30:00.000Z"],
];
const BY_FORMAT = {
  email: "priya.sharma@example.com",
  uri: "https://hrms.example.com/",
  "idn-email": "priya.sharma@example.com",
};

function fits(schema, value) {
  if (typeof value !== "string") return false;
  if (schema.maxLength !== undefined && value.length > schema.maxLength) return false;
  if (schema.minLength !== undefined && value.length < schema.minLength) return false;
  if (schema.pattern !== undefined && !new RegExp(schema.pattern, "u").test(value)) return false;
  return true;
}

const byFirstMatch = (table, name) => table.find(([re]) => re.test(name))?.[1];

/**
 * The example of a string schema: `family` the component it belongs to (or null), `name` its
 * property's name (an array's items: the array's name). Undefined when nothing fits.
 */
export function stringExample(schema, family, name) {
  const candidates = [];
  const id = name === "id" && family ? `${family.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase()}_id` : name;
  if (schema.format === "uuid") candidates.push(exampleUuid(id ?? "id"));
  else if (schema.format === "date")
    candidates.push(family && name ? BY_SCHEMA[`${family}.${name}`] : undefined, byFirstMatch(DATE_BY_NAME, name ?? ""));
  else if (schema.format === "date-time") candidates.push(byFirstMatch(DATE_TIME_BY_NAME, name ?? ""));
  else {
    if (family && name) candidates.push(BY_SCHEMA[`${family}.${name}`]);
    if (name) candidates.push(...[BY_NAME[name]].flat());
    candidates.push(BY_FORMAT[schema.format]);
  }
  return candidates.find((c) => c !== undefined && fits(schema, c));
}

/** The family of a component file name (`LeaveTypeInput.yaml` -> `LeaveType`) or of a path file (PATH_FAMILY). */
export function familyOf(file) {
  const base = /[^/\\]+\.yaml$/.exec(file ?? "")?.[0] ?? "";
  if (base.startsWith("api_")) return PATH_FAMILY.find(([re]) => re.test(base))?.[1] ?? null;
  const m = /^([A-Za-z0-9]+)\.yaml$/.exec(base);
  return m ? m[1].replace(/(Create|Update|Input|Request)$/, "") : null;
}

/** Whole numbers and numbers by property name (a mock server makes up -9007199254740991 without one). */
const NUMBER_BY_NAME = {
  members: 42,
  employee_count: 48,
  total_rows: 250,
  processed_rows: 250,
  imported_rows: 248,
  failed_rows: 2,
  problem_count: 2,
  row: 3,
  experience_years: 6,
  required_experience_years: 4,
  duration_minutes: 60,
  notice_period_days: 30,
  employees_without_setup: 0,
  size_bytes: 184320,
  days_in_period: 30,
  installments: 12,
  max_installments: 24,
  deferrals: 0,
  years: 5,
  months: 3,
  days: 12,
  counted_years: 5,
  required_days: 60,
  served_days: 45,
  shortfall_days: 15,
  send_count: 1,
  screening_score: 82,
  score: 82,
  rating: 4,
  posting_count: 1,
  positions: 2,
  openings: 2,
  open_damage_reports: 0,
  min_notice_days: 2,
  message_count: 3,
  max_consecutive_days: 10,
  comp_off_validity_days: 90,
  carry_forward_expiry_days: 90,
  candidate_count: 12,
  attachment_required_above_days: 2,
  asset_count: 24,
  weekly_offs: 0,
  uptime_seconds: 86400,
  updated: 0,
  queued: 0,
  round_up_after_months: 6,
  min_years: 5,
  fixed_term_min_years: 1,
  fiscal_year_start_month: 4,
  feedback_deadline_hours: 48,
  eps_age_limit: 58,
  divisor: 26,
  days_per_year: 18,
  unread_count: 3,
  status_code: 200,
  skipped_count: 0,
  created_count: 48,
  created: 3,
  latency_ms: 120,
  expires_in: 3600,
  epoch_ms: 1795602600000,
  documents_copied: 2,
  attempt: 1,
  total: 48,
  total_pages: 3,
  page: 1,
  limit: 20,
};

/**
 * The example of a number schema by its property's name, else the least value its bounds allow
 * (at least 1: a count of one reads better than zero); undefined when nothing fits.
 */
export function numberExample(schema, name) {
  const fitsNumber = (v) =>
    typeof v === "number" &&
    (schema.type !== "integer" && !(Array.isArray(schema.type) && schema.type.includes("integer")) ? true : Number.isInteger(v)) &&
    (schema.minimum === undefined || v >= schema.minimum) &&
    (schema.maximum === undefined || v <= schema.maximum) &&
    (schema.exclusiveMinimum === undefined || v > schema.exclusiveMinimum) &&
    (schema.exclusiveMaximum === undefined || v < schema.exclusiveMaximum);
  const low = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : undefined);
  return [NUMBER_BY_NAME[name], low !== undefined && low >= 1 ? low : undefined, 1, 0, schema.maximum].find(fitsNumber);
}

/** Statuses in which a record has no decision, outcome, progress or failure yet. */
const FIRST_STATUSES = new Set(["draft", "pending", "pending_approval", "queued", "open", "requested", "scheduled", "submitted", "new"]);
const LATER_FIELD = new RegExp(
  "^(decided|approved|rejected|cancelled|processed|resolved|closed|returned|completed|paid|withdrawn|failed|finished|responded)" +
    "_(at|by|on)$" +
    "|^(decision_comment|decision_notes|failure_reason|resolution_notes)$",
);

/**
 * The later fields of an object example whose status (its example, else its first value) is a first
 * one: null (where allowed), as the server answers such a record - a pending leave request has no
 * decision, a draft payroll run no progress or failure.
 */
export function laterFieldsFollowStatus(schema, resolve = (x) => x) {
  const status = schema.properties?.status?.$ref ? resolve(schema.properties.status) : schema.properties?.status;
  const value = status?.example ?? status?.enum?.find((v) => v !== null);
  if (!FIRST_STATUSES.has(value)) return;
  for (const [name, prop] of Object.entries(schema.properties)) {
    if (!LATER_FIELD.test(name) || !prop || prop.$ref) continue;
    const nullable =
      (Array.isArray(prop.type) && prop.type.includes("null")) ||
      [...(prop.oneOf ?? []), ...(prop.anyOf ?? [])].some((m) => m?.type === "null");
    if (nullable) prop.example = null;
  }
}

/** Money that adds up (net = gross - deductions), by the schema it belongs to: a run's totals, one slip. */
const MONEY_BY_SCHEMA = {
  "PayrollRun.total_gross": "4632000.00",
  "PayrollRun.total_deductions": "582720.00",
  "PayrollRun.total_net": "4049280.00",
  "PayrollTotals.gross": "4632000.00",
  "PayrollTotals.total_deductions": "582720.00",
  "PayrollTotals.net_pay": "4049280.00",
};
const MONEY_BY_NAME = { gross: "96500.00", total_deductions: "12140.00", net_pay: "84360.00" };

/**
 * Money properties whose figures must agree with their siblings (the shared Money example, 48250.00,
 * would make every net equal its gross) get examples of their own, in the bundle (a `$ref` with an
 * example beside it loses it in bundling): a copy of Money with its own example. Run on generated/openapi.json
 * by scripts/build/generate.mjs.
 */
export function moneyExamples(doc) {
  const money = "#/components/schemas/Money";
  for (const [family, schema] of Object.entries(doc.components?.schemas ?? {}))
    for (const [name, prop] of Object.entries(schema.properties ?? {})) {
      const example = MONEY_BY_SCHEMA[`${family}.${name}`] ?? MONEY_BY_NAME[name];
      // Money itself with an example of its own (a mock server merges an allOf and keeps Money's)
      if (prop?.$ref === money && example !== undefined)
        schema.properties[name] = { ...structuredClone(doc.components.schemas.Money), example };
    }
  return doc;
}
