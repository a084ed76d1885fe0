// The demo company of `make seed` (scripts/db/seed.ts), built through the API as a client would: every
// record passes the same validation, rules, audit entries and notices as one made by hand, so the
// demo is valid data. Only two things bypass HTTP: the owner's signup confirmation token and the
// members' invitation tokens are read where a developer without SMTP reads them (the signup
// request row the fixtures also set, the outbox row of the invitation mail).
//
// Idempotent: every section first asks the API what exists and adds only what is missing - item by
// item for the company, branches, employees (by e-mail), members, leave setup, holidays, salary
// components and setups, payroll runs (by month) and assets (by tag); as a whole for the sample
// activity (leave and work-from-home requests, attendance, loans and claims, recruitment, helpdesk:
// left alone once any exists). A second run adds nothing. Dates are relative to the clock's today
// in the company's time zone (src/lib/clock.ts), so the demo looks current whenever it is seeded.
import * as clock from "../../src/lib/clock.ts";
import { addDays, todayIn, weekday } from "../../src/lib/dates.ts";
import { newToken } from "../../src/platform/identity/tokens.ts";

// the sign-in of the demo's owner (the start banner and /docs' sign-in name it too)
import { DEMO_COMPANY, DEMO_OWNER_EMAIL, DEMO_PASSWORD } from "../../src/platform/identity/demo.ts";

export { DEMO_COMPANY, DEMO_OWNER_EMAIL, DEMO_PASSWORD };
export const TIME_ZONE = "Asia/Kolkata";

export type Query = <T = any>(sql: string, params?: unknown[]) => Promise<T[]>;

export interface SignIn {
  role: "owner" | "hr" | "manager" | "employee";
  name: string;
  email: string;
  password: string;
}

export interface SeedResult {
  company: string;
  tenantId: string;
  employees: number;
  signIns: SignIn[];
  /** What each section added this run (0 everywhere on a second run). */
  added: Record<string, number>;
  /** The demo API credential's secret, on the run that created it (a secret is shown once). */
  credentialSecret?: string;
}

const DEMO_CREDENTIAL = "Demo HRIS sync";
const DEMO_WEBHOOK_URL = "https://hooks.example.com/hrms";

export interface SeedOptions {
  /** The app's base URL (`http://127.0.0.1:<port>`). */
  baseUrl: string;
  /** Reads of the database (the two tokens, see above). */
  query: Query;
  /** Employees of the company (default 200; the test uses fewer). */
  employees?: number;
  log?: (line: string) => void;
}

// ---------------------------------------------------------------------------------------------
// A small HTTP client with a cookie jar (one per signed-in person).

class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    what: string,
  ) {
    super(`${what}: ${status} ${JSON.stringify(body).slice(0, 600)}`);
  }
}

class Session {
  private cookies = new Map<string, string>();
  constructor(private readonly base: string) {}

  async call<T = any>(
    method: string,
    path: string,
    body?: unknown,
    expect: number[] = [200, 201, 202],
  ): Promise<{ status: number; body: any; data: T }> {
    const headers: Record<string, string> = { accept: "application/json" };
    if (body !== undefined) headers["content-type"] = "application/json";
    if (this.cookies.size) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
    const res = await fetch(this.base + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(";");
      const eq = pair.indexOf("=");
      this.cookies.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
    }
    const text = await res.text();
    const parsed = text && res.headers.get("content-type")?.includes("json") ? JSON.parse(text) : text;
    if (!expect.includes(res.status)) throw new ApiError(res.status, parsed, `${method} ${path}`);
    return { status: res.status, body: parsed, data: parsed?.data as T };
  }
  get = <T = any>(path: string) => this.call<T>("GET", path).then((r) => r.data);
  post = <T = any>(path: string, body?: unknown) => this.call<T>("POST", path, body ?? {}).then((r) => r.data);
  put = <T = any>(path: string, body: unknown) => this.call<T>("PUT", path, body).then((r) => r.data);
  del = <T = any>(path: string) => this.call<T>("DELETE", path).then((r) => r.data);

  /** Every row of a list (paginated ones in pages of 100). */
  async all<T = any>(path: string): Promise<T[]> {
    const out: T[] = [];
    for (let page = 1; ; page++) {
      const sep = path.includes("?") ? "&" : "?";
      const r = await this.call<T[]>("GET", `${path}${sep}page=${page}&limit=100`, undefined, [200, 400]);
      if (r.status === 400) return page === 1 ? this.get<T[]>(path) : Promise.reject(new ApiError(400, r.body, `GET ${path}`));
      out.push(...r.data);
      if (page >= (r.body.pagination?.total_pages ?? 1)) return out;
    }
  }
}

/** Runs `fn` over `items`, `n` at a time. */
async function parallel<T>(items: T[], n: number, fn: (item: T, i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(n, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        await fn(items[i], i);
      }
    }),
  );
}

// ---------------------------------------------------------------------------------------------
// The people.

// first names with the gender they are given to (the seed's check: test/platform/seed.test.ts)
export const FIRST: ReadonlyArray<readonly [string, "female" | "male"]> = [
  ["Aarav", "male"],
  ["Priya", "female"],
  ["Rohan", "male"],
  ["Ananya", "female"],
  ["Vikram", "male"],
  ["Meera", "female"],
  ["Arjun", "male"],
  ["Kavya", "female"],
  ["Siddharth", "male"],
  ["Ishita", "female"],
  ["Karthik", "male"],
  ["Divya", "female"],
  ["Farhan", "male"],
  ["Neha", "female"],
  ["Rahul", "male"],
  ["Sneha", "female"],
  ["Aditya", "male"],
  ["Pooja", "female"],
  ["Omar", "male"],
  ["Fatima", "female"],
  ["Yusuf", "male"],
  ["Aisha", "female"],
  ["Rajesh", "male"],
  ["Lakshmi", "female"],
  ["Manoj", "male"],
  ["Nikhil", "male"],
  ["Shreya", "female"],
  ["Varun", "male"],
  ["Tanvi", "female"],
  ["Harish", "male"],
  ["Deepa", "female"],
  ["Gaurav", "male"],
  ["Nandini", "female"],
  ["Suresh", "male"],
  ["Anjali", "female"],
  ["Imran", "male"],
  ["Radhika", "female"],
  ["Abhishek", "male"],
  ["Swati", "female"],
  ["Prakash", "male"],
]; // prettier-ignore
const LAST = [
  "Sharma",
  "Iyer",
  "Reddy",
  "Nair",
  "Patel",
  "Menon",
  "Gupta",
  "Rao",
  "Khan",
  "Das",
  "Singh",
  "Joshi",
  "Kulkarni",
  "Pillai",
  "Banerjee",
  "Chatterjee",
  "Mehta",
  "Desai",
  "Shetty",
  "Verma",
  "Hegde",
  "Bhat",
  "Kapoor",
  "Malhotra",
  "Srinivasan",
  "Krishnan",
  "Mukherjee",
  "Agarwal",
  "Naidu",
  "Fernandes",
]; // prettier-ignore

interface Dept {
  name: string;
  share: number;
  head: string;
  lead: string;
  titles: string[];
}
const DEPARTMENTS: Dept[] = [
  {
    name: "Engineering",
    share: 0.36,
    head: "VP Engineering",
    lead: "Engineering Manager",
    titles: ["Software Engineer", "Senior Software Engineer", "QA Engineer", "DevOps Engineer"],
  },
  {
    name: "Sales",
    share: 0.16,
    head: "Head of Sales",
    lead: "Sales Manager",
    titles: ["Account Executive", "Sales Development Representative"],
  },
  {
    name: "Customer Success",
    share: 0.12,
    head: "Head of Customer Success",
    lead: "Support Team Lead",
    titles: ["Customer Success Associate", "Support Engineer"],
  },
  {
    name: "Operations",
    share: 0.1,
    head: "Head of Operations",
    lead: "Operations Lead",
    titles: ["Operations Associate", "Facilities Executive"],
  },
  {
    name: "Marketing",
    share: 0.08,
    head: "Marketing Director",
    lead: "Marketing Manager",
    titles: ["Content Writer", "Digital Marketing Executive"],
  },
  { name: "Finance", share: 0.07, head: "Finance Controller", lead: "Accounts Manager", titles: ["Accountant", "Payroll Executive"] },
  {
    name: "Human Resources",
    share: 0.06,
    head: "HR Manager",
    lead: "HR Business Partner",
    titles: ["HR Generalist", "Talent Acquisition Specialist"],
  },
  {
    name: "Product",
    share: 0.05,
    head: "Head of Product",
    lead: "Senior Product Manager",
    titles: ["Product Manager", "Product Designer"],
  },
]; // prettier-ignore

const BRANCHES = [
  {
    code: "BLR",
    name: "Bengaluru HQ",
    city: "Bengaluru",
    state: "Karnataka",
    address: "4th Floor, Prestige Tech Park, Marathahalli, Bengaluru 560103",
    phone: "+91 80 4567 8900",
    lat: 12.9352,
    lng: 77.6963,
  },
  {
    code: "MUM",
    name: "Mumbai",
    city: "Mumbai",
    state: "Maharashtra",
    address: "12th Floor, One BKC, Bandra Kurla Complex, Mumbai 400051",
    phone: "+91 22 6123 4500",
    lat: 19.066,
    lng: 72.8679,
  },
  {
    code: "HYD",
    name: "Hyderabad",
    city: "Hyderabad",
    state: "Telangana",
    address: "Tower B, Mindspace, HITEC City, Hyderabad 500081",
    phone: "+91 40 4012 3400",
    lat: 17.4435,
    lng: 78.3772,
  },
]; // prettier-ignore

interface Person {
  index: number;
  first: string;
  gender: "female" | "male";
  last: string;
  email: string;
  department: string;
  designation: string;
  manager: number | null;
  branch: number;
  joining: string;
  ctc: number;
}

/** The company's people, managers before their reports: 0 is the CEO, then the heads, leads and teams. */
export function people(total: number, today: string): Person[] {
  const out: Person[] = [];
  const used = new Set<string>();
  const make = (department: string, designation: string, manager: number | null, ctc: number): number => {
    const i = out.length;
    const [first, gender] = FIRST[i % FIRST.length];
    const last = LAST[(i * 7 + Math.floor(i / FIRST.length)) % LAST.length];
    let email = `${first}.${last}@acme.example`.toLowerCase();
    for (let n = 2; used.has(email); n++) email = `${first}.${last}${n}@acme.example`.toLowerCase();
    used.add(email);
    // joined between 6 years and 3 weeks ago (a few this month), the senior earlier
    const daysAgo = manager === null ? 2200 : 21 + ((i * 389) % (i < 30 ? 2000 : 1500));
    out.push({
      index: i,
      first,
      gender,
      last,
      email,
      department,
      designation,
      manager,
      branch: i % 5 === 3 ? 1 : i % 7 === 5 ? 2 : 0,
      joining: addDays(today, -daysAgo),
      ctc,
    });
    return i;
  };
  const ceo = make("Leadership", "Chief Executive Officer", null, 650000);
  const heads = DEPARTMENTS.map((d) => make(d.name, d.head, ceo, 280000 + (d.share * 300000) / 1));
  const rest = Math.max(0, total - out.length);
  const sizes = DEPARTMENTS.map((d) => Math.round(d.share * rest));
  let over = sizes.reduce((a, b) => a + b, 0) - rest;
  for (let k = 0; over > 0; k = (k + 1) % sizes.length)
    if (sizes[k] > 0) {
      sizes[k]--;
      over--;
    }
  for (let k = 0; over < 0; k = (k + 1) % sizes.length) {
    sizes[k]++;
    over++;
  }
  DEPARTMENTS.forEach((d, k) => {
    const leads: number[] = [];
    for (let n = 0; n < sizes[k] && out.length < total; n++) {
      // one lead per 8 people; the others report to a lead (or to the head in small teams)
      if (n % 9 === 0 && sizes[k] > 6) leads.push(make(d.name, d.lead, heads[k], 160000 + ((n * 7919) % 40) * 1000));
      else {
        const senior = n % 4 === 1;
        const base = senior ? 110000 : 45000;
        const title = d.titles[senior && d.titles.length > 1 ? 1 : n % d.titles.length];
        make(d.name, title, leads.length ? leads[n % leads.length] : heads[k], base + ((n * 4391) % 40) * 1000);
      }
    }
  });
  return out.slice(0, Math.max(total, 1));
}

// ---------------------------------------------------------------------------------------------

const pad = (n: number) => String(n).padStart(2, "0");
const money = (n: number) => n.toFixed(2);
/** The IST instant `hh:mm` of `day` as ISO 8601 UTC. */
const ist = (day: string, hh: number, mm: number) => new Date(`${day}T${pad(hh)}:${pad(mm)}:00+05:30`).toISOString();
/** A PAN of the right shape: five letters (the fourth P for a person), four digits, a letter. */
const pan = (n: number) => {
  const letters = `${"ABCDEFGHJK"[n % 10]}${"KLMNP"[n % 5]}${"PQRST"[(n * 3) % 5]}P${"ABCDE"[n % 5]}`;
  return `${letters}${1000 + ((n * 37) % 9000)}${"FGHJK"[n % 5]}`;
};
const isWeekend = (d: string) => weekday(d) === 0 || weekday(d) === 6;

/** Builds (or completes) the demo company; returns the sign-ins. */
export async function seedDemo(opts: SeedOptions): Promise<SeedResult> {
  const log = opts.log ?? (() => {});
  const q = opts.query;
  const total = Math.max(12, opts.employees ?? 200);
  const today = todayIn(TIME_ZONE, clock.now());
  const added: Record<string, number> = {};
  const count = (section: string, n = 1) => {
    added[section] = (added[section] ?? 0) + n;
  };
  let last: { name: string; at: number } | undefined;
  const section = (name?: string) => {
    if (last)
      log(`  ${last.name.padEnd(20)} ${String(added[last.name]).padStart(5)} added  ${((Date.now() - last.at) / 1000).toFixed(1)} s`);
    last = name === undefined ? undefined : { name, at: Date.now() };
    if (name) added[name] ??= 0;
  };

  // -- the owner and the company -------------------------------------------------------------
  section("owner");
  const ownerSignIn: SignIn = { role: "owner", name: "Devika Rao", email: DEMO_OWNER_EMAIL, password: DEMO_PASSWORD };
  const owner = new Session(opts.baseUrl);
  const signIn = await owner.call("POST", "/api/auth/sign-in", { email: ownerSignIn.email, password: DEMO_PASSWORD }, [200, 401]);
  let tenantId: string;
  if (signIn.status === 200) tenantId = signIn.data.active_tenant_id;
  else {
    await owner.post("/api/auth/signup", { name: ownerSignIn.name, email: ownerSignIn.email, company_name: DEMO_COMPANY });
    // the token a developer would read from the mail (as test/support/signup.ts sets it)
    const { token, hash } = newToken();
    const rows = await q(
      `UPDATE signup_requests SET token_hash = $2, mailed_at = coalesce(mailed_at, now())
        WHERE id = (SELECT id FROM signup_requests WHERE email = $1 ORDER BY created_at DESC LIMIT 1) RETURNING id`,
      [ownerSignIn.email, hash],
    );
    if (rows.length !== 1) throw new Error("the demo owner's signup was not recorded");
    const confirmed = await owner.post("/api/auth/signup/confirm", { token, password: DEMO_PASSWORD });
    tenantId = confirmed.active_tenant_id;
    count("owner");
  }

  section("company settings");
  const settings = await owner.get("/api/configuration/company-settings");
  const modules = ["payroll", "recruitment", "helpdesk", "assets"];
  if (!modules.every((m) => settings.modules?.includes(m)) || settings.legal_name !== "Acme India Private Limited") {
    await owner.post("/api/configuration/company-settings", {
      legal_name: "Acme India Private Limited",
      address: BRANCHES[0].address,
      currency: "INR",
      timezone: TIME_ZONE,
      weekly_offs: [0, 6],
      fiscal_year_start_month: 4,
      modules,
    });
    count("company settings");
  }

  // -- branches and work locations -------------------------------------------------------------
  section("branches");
  const branches = await owner.all("/api/configuration/branches");
  const branchIds: string[] = [];
  for (const b of BRANCHES) {
    let row = branches.find((x) => x.code === b.code);
    if (!row) {
      const { lat: _lat, lng: _lng, ...branch } = b;
      row = await owner.post("/api/configuration/branches", { ...branch, country: "IN" });
      count("branches");
    }
    branchIds.push(row.id);
  }
  section("work locations");
  const locations = await owner.all("/api/configuration/work-locations");
  const locationIds: string[] = [];
  for (const [k, b] of BRANCHES.entries()) {
    const name = `${b.city} office`;
    let row = locations.find((x) => x.name === name);
    if (!row) {
      row = await owner.post("/api/configuration/work-locations", {
        name,
        branch_id: branchIds[k],
        address: b.address,
        city: b.city,
        state: b.state,
        country: "IN",
        latitude: b.lat,
        longitude: b.lng,
        geofence_radius_m: 300,
      });
      count("work locations");
    }
    locationIds.push(row.id);
  }

  // -- employees ---------------------------------------------------------------------------------
  section("employees");
  const crew = people(total, today);
  // by e-mail: the server numbers them in the company's one series (EMP-00001...), which imports continue
  const existing = new Map((await owner.all("/api/employees")).map((e) => [e.email, e.id as string]));
  const ids: string[] = [];
  // level by level, so that every manager exists before their reports
  const levels = new Map<number, number>();
  const level = (p: Person): number => (p.manager === null ? 0 : (levels.get(p.manager) ?? 0) + 1);
  for (const p of crew) levels.set(p.index, level(p));
  for (let lv = 0; lv <= Math.max(...levels.values()); lv++) {
    const batch = crew.filter((p) => levels.get(p.index) === lv);
    await parallel(batch, 6, async (p) => {
      const known = existing.get(p.email);
      if (known) {
        ids[p.index] = known;
        return;
      }
      const b = BRANCHES[p.branch];
      const n = p.index + 1;
      const row = await owner.post("/api/employees", {
        first_name: p.first,
        last_name: p.last,
        email: p.email,
        phone: `+91 98${String(45000000 + n * 7919).slice(0, 3)} ${String(10000 + ((n * 3571) % 89999)).padStart(5, "0")}`,
        department: p.department,
        designation: p.designation,
        joining_date: p.joining,
        date_of_birth: `${1972 + (n % 28)}-${pad(((n * 5) % 12) + 1)}-${pad(((n * 11) % 28) + 1)}`,
        gender: p.gender,
        employment_type: n % 23 === 0 ? "contract" : "full_time",
        reports_to: p.manager === null ? null : ids[p.manager],
        branch_id: branchIds[p.branch],
        work_location_id: locationIds[p.branch],
        bank_name: ["HDFC Bank", "ICICI Bank", "State Bank of India", "Axis Bank"][n % 4],
        bank_account_number: `50100${String(100000000 + n * 104729).slice(0, 9)}`,
        bank_ifsc: ["HDFC0001234", "ICIC0000456", "SBIN0007890", "UTIB0000123"][n % 4],
        pan_number: pan(n),
        uan: String(100900000000 + n * 7331),
        state: b.state,
      });
      ids[p.index] = row.id;
      count("employees");
    });
  }

  // The four demo sign-ins: the HR head, an engineering manager with reports, one of those reports.
  // (people who joined before this financial year, so that they have a full year's leave)
  const fyStartYear = Number(today.slice(5, 7)) >= 4 ? Number(today.slice(0, 4)) : Number(today.slice(0, 4)) - 1;
  const settled = (p: Person) => p.joining < `${fyStartYear}-04-01`;
  const hrHead = crew.find((p) => p.department === "Human Resources" && levels.get(p.index) === 1) as Person;
  const manager = crew.find((p) => p.designation === "Engineering Manager") ?? (crew[1] as Person);
  const reports = crew.filter((p) => p.manager === manager.index);
  const report = reports.find(settled) ?? reports[0];
  const signIns: SignIn[] = [
    ownerSignIn,
    { role: "hr", name: `${hrHead.first} ${hrHead.last}`, email: hrHead.email, password: DEMO_PASSWORD },
    { role: "manager", name: `${manager.first} ${manager.last}`, email: manager.email, password: DEMO_PASSWORD },
    { role: "employee", name: `${report.first} ${report.last}`, email: report.email, password: DEMO_PASSWORD },
  ];

  // -- members (invited from their employee record, invitation accepted) -------------------------
  section("members");
  const { members } = await owner.get("/api/configuration/members");
  for (const [s, p] of [
    [signIns[1], hrHead],
    [signIns[2], manager],
    [signIns[3], report],
  ] as const) {
    if (members.some((m: { email: string }) => m.email === s.email)) continue;
    await owner.post("/api/configuration/members", { email: s.email, role: s.role, employee_id: ids[p.index] });
    const [mail] = await q<{ secrets: string[] }>(
      `SELECT secrets FROM email_outbox WHERE to_address = $1 AND subject LIKE 'You are invited%' ORDER BY created_at DESC LIMIT 1`,
      [s.email],
    );
    if (!mail?.secrets?.[0]) throw new Error(`no invitation mail for ${s.email}`);
    await new Session(opts.baseUrl).post("/api/auth/accept-invite", { token: mail.secrets[0], name: s.name, password: DEMO_PASSWORD });
    count("members");
  }
  const as = async (s: SignIn) => {
    const session = new Session(opts.baseUrl);
    await session.post("/api/auth/sign-in", { email: s.email, password: s.password });
    return session;
  };
  const hr = await as(signIns[1]);
  const mgr = await as(signIns[2]);
  const emp = await as(signIns[3]);

  // -- leave -------------------------------------------------------------------------------------
  section("leave types");
  const types = new Map<string, string>((await hr.all("/api/leave-types")).map((t) => [t.code, t.id]));
  const TYPES = [
    {
      code: "CL",
      name: "Casual leave",
      description: "For personal matters; up to 3 days at a time.",
      is_paid: true,
      allow_half_day: true,
      max_consecutive_days: 3,
      quota: "12",
    },
    {
      code: "SL",
      name: "Sick leave",
      description: "When unwell; a medical certificate above 2 days.",
      is_paid: true,
      allow_half_day: true,
      attachment_required_above_days: 2,
      quota: "12",
    },
    {
      code: "EL",
      name: "Earned leave",
      description: "Accrues monthly; carried forward up to 30 days and encashable.",
      is_paid: true,
      min_notice_days: 7,
      carry_forward: true,
      carry_forward_max_days: "30",
      encashable: true,
      encashment_max_days: "15",
      quota: "18",
      accrual: "monthly",
    },
    {
      code: "ML",
      name: "Maternity leave",
      description: "26 weeks under the Maternity Benefit Act.",
      is_paid: true,
      applicable_genders: ["female"],
      quota: "182",
    },
    {
      code: "CO",
      name: "Compensatory off",
      description: "Credited for an approved working day on a holiday.",
      is_paid: true,
      is_compensatory: true,
      comp_off_validity_days: 90,
      quota: null,
    },
    {
      code: "LOP",
      name: "Leave without pay",
      description: "Unpaid; deducted in payroll as loss of pay.",
      is_paid: false,
      allow_negative_balance: true,
      negative_balance_limit: "30",
      quota: null,
    },
  ] as const; // prettier-ignore
  for (const t of TYPES) {
    if (types.has(t.code)) continue;
    const { quota: _q, accrual: _a, ...body } = t as typeof t & { accrual?: string };
    types.set(t.code, (await hr.post("/api/leave-types", body)).id);
    count("leave types");
  }

  section("leave period");
  const periods = await hr.all("/api/leave-periods");
  const periodName = `FY ${fyStartYear}-${String(fyStartYear + 1).slice(2)}`;
  let period = periods.find((p) => p.name === periodName);
  if (!period) {
    period = await hr.post("/api/leave-periods", {
      name: periodName,
      start_date: `${fyStartYear}-04-01`,
      end_date: `${fyStartYear + 1}-03-31`,
      is_current: true,
    });
    count("leave period");
  }

  section("holidays");
  const holidays = await hr.all(`/api/holidays?from_date=${period.start_date}&to_date=${period.end_date}`);
  const y0 = fyStartYear;
  const y1 = fyStartYear + 1;
  const HOLIDAYS = [
    [`${y0}-05-01`, "Maharashtra Day / May Day"],
    [`${y0}-08-15`, "Independence Day"],
    [`${y0}-10-02`, "Gandhi Jayanti"],
    [`${y0}-11-01`, "Kannada Rajyotsava"],
    [`${y0}-12-25`, "Christmas"],
    [`${y1}-01-01`, "New Year's Day"],
    [`${y1}-01-14`, "Makar Sankranti / Pongal"],
    [`${y1}-01-26`, "Republic Day"],
  ];
  const newHolidays = HOLIDAYS.filter(([date]) => !holidays.some((h) => h.date === date)).map(([date, name]) => ({
    date,
    name,
    is_optional: name.includes("Sankranti"),
  }));
  if (newHolidays.length) {
    await hr.post("/api/holidays/bulk", { holidays: newHolidays });
    count("holidays", newHolidays.length);
  }
  const holidayDates = new Set(HOLIDAYS.map(([d]) => d));
  const workday = (d: string) => !isWeekend(d) && !holidayDates.has(d);

  section("leave policy");
  const policies = await hr.all("/api/leave-policies");
  let policy = policies.find((p) => p.name === "Standard leave policy");
  if (!policy) {
    policy = await hr.post("/api/leave-policies", {
      name: "Standard leave policy",
      description: "Every employee: casual, sick and earned leave; maternity leave for women.",
      assignment: "default",
      items: TYPES.filter((t) => t.quota).map((t) => ({
        leave_type_id: types.get(t.code),
        annual_quota: t.quota,
        accrual: (t as { accrual?: string }).accrual ?? "upfront",
      })),
    });
    count("leave policy");
  }

  section("leave allocations");
  const allocated = await hr.call("GET", `/api/leave-allocations?period_id=${period.id}&limit=1`);
  if (!allocated.body.pagination?.total) {
    await hr.post("/api/leave-allocations", { period_id: period.id, policy_id: policy.id, notes: "Opening allocation for the year" });
    count("leave allocations");
  }

  // Requests in every state, on working days around today, never two for one person.
  section("leave requests");
  const requests = await hr.all("/api/leave-requests");
  const requested = new Set(requests.map((r) => r.employee_id));
  const nthWorkday = (from: string, n: number): string => {
    let d = from;
    for (let k = 0; k < Math.abs(n) || !workday(d); ) {
      d = addDays(d, n < 0 ? -1 : 1);
      if (workday(d)) k++;
    }
    return d;
  };
  const REASONS = [
    "Family function in Mysuru",
    "Fever and cold",
    "Visiting parents",
    "Sister's wedding",
    "Medical appointment",
    "Personal work",
  ];
  const onLeave = new Map<string, Set<string>>(); // employee id -> days on approved leave (no attendance there)
  const leavePlan: { who: number; type: string; from: string; days: number; state: "approved" | "pending" | "rejected" | "cancelled" }[] =
    [];
  const candidates = crew.filter((p) => p.index > 8 && settled(p) && p.index !== report.index && p.index !== manager.index);
  // n working days from today, or as far the other way where that would leave the leave period
  const inPeriod = (d: string) => d >= period.start_date && d <= period.end_date;
  const leaveDay = (n: number, days: number): string => {
    const from = nthWorkday(today, n);
    return inPeriod(from) && inPeriod(nthWorkday(from, days)) ? from : nthWorkday(today, n < 0 ? 30 - n : -(30 + n));
  };
  const pick = (k: number) => candidates[(k * 13) % candidates.length].index;
  for (let k = 0; k < Math.min(28, candidates.length); k++) {
    const state = (["approved", "approved", "pending", "rejected", "cancelled", "approved", "pending"] as const)[k % 7];
    const days = 1 + (k % 2);
    const from = leaveDay(state === "approved" ? -(3 + ((k * 5) % 20)) : 2 + ((k * 3) % 15), days);
    leavePlan.push({ who: pick(k), type: ["CL", "SL", "CL", "LOP"][k % 4], from, days, state });
  }
  // the demo employee: one taken, one waiting for the manager
  leavePlan.push({ who: report.index, type: "CL", from: leaveDay(-6, 1), days: 1, state: "approved" });
  leavePlan.push({ who: report.index, type: "SL", from: leaveDay(12, 2), days: 2, state: "pending" });
  const seen = new Set<string>();
  for (const l of leavePlan) {
    const employee = ids[l.who];
    const key = `${employee}:${l.from}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const to = nthWorkday(l.from, l.days - 1);
    if (l.state === "approved") {
      const days = onLeave.get(employee) ?? new Set();
      for (let d = l.from; d <= to; d = addDays(d, 1)) days.add(d);
      onLeave.set(employee, days);
    }
    if (requested.has(employee) && l.who !== report.index) continue;
    if (l.who === report.index && requests.some((r) => r.employee_id === employee && r.from_date === l.from)) continue;
    const body = {
      employee_id: employee,
      leave_type_id: types.get(l.type),
      from_date: l.from,
      to_date: to,
      reason: REASONS[l.who % REASONS.length],
    };
    const r =
      l.who === report.index
        ? await emp.post("/api/leave-requests", { ...body, employee_id: undefined })
        : await hr.post("/api/leave-requests", body);
    if (l.state === "approved") await hr.put(`/api/leave-requests/${r.id}`, { status: "approved", comment: "Enjoy your time off" });
    if (l.state === "rejected")
      await hr.put(`/api/leave-requests/${r.id}`, { status: "rejected", comment: "Quarter-end release week: please pick other dates" });
    if (l.state === "cancelled") await hr.del(`/api/leave-requests/${r.id}`);
    count("leave requests");
  }

  section("work from home");
  const wfh = await hr.call("GET", "/api/wfh-requests?limit=1");
  if (!wfh.body.pagination?.total) {
    const day = nthWorkday(today, 3);
    await emp.post("/api/wfh-requests", { from_date: day, to_date: day, reason: "Internet technician visiting at home" });
    for (let k = 0; k < 4; k++) {
      const d = nthWorkday(today, 4 + k);
      const r = await hr.post("/api/wfh-requests", {
        employee_id: ids[pick(40 + k)],
        from_date: d,
        to_date: d,
        reason: "Waiting for a delivery",
      });
      if (k % 2) await hr.put(`/api/wfh-requests/${r.id}`, { status: "approved" });
      count("work from home");
    }
    count("work from home");
  }

  // -- attendance: the last 30 days, imported as a biometric export would be --------------------
  section("attendance");
  const from = addDays(today, -30);
  const marked = await q<{ n: number }>(`SELECT count(*)::int AS n FROM attendance_records WHERE tenant_id = $1 AND date >= $2`, [
    tenantId,
    from,
  ]);
  if (!marked[0].n) {
    const records: Record<string, unknown>[] = [];
    for (let d = from; d < today; d = addDays(d, 1)) {
      if (!workday(d)) continue;
      for (const [k, p] of crew.entries()) {
        if (p.joining > d || onLeave.get(ids[p.index])?.has(d)) continue;
        const h = (k * 31 + Number(d.slice(8))) % 97;
        if (h === 7) {
          records.push({ employee_id: ids[p.index], date: d, status: "absent", notes: "No punch recorded" });
          continue;
        }
        const late = h % 11 === 0;
        const half = h === 13;
        records.push({
          employee_id: ids[p.index],
          date: d,
          check_in: ist(d, late ? 10 : 9, (h * 7) % 45),
          check_out: ist(d, half ? 13 : 18, 10 + ((h * 13) % 45)),
        });
      }
    }
    for (let i = 0; i < records.length; i += 1000) await owner.post("/api/attendance/import", { records: records.slice(i, i + 1000) });
    count("attendance", records.length);
  }

  // -- payroll -------------------------------------------------------------------------------------
  section("statutory settings");
  const pf = await hr.get("/api/configuration/payroll/pf-settings");
  if (!pf.enabled) {
    await hr.post("/api/configuration/payroll/pf-settings", { enabled: true });
    await hr.post("/api/configuration/payroll/esi-settings", { enabled: true });
    await hr.post("/api/configuration/payroll/professional-tax", { enabled: true });
    await hr.post("/api/configuration/payroll/gratuity-settings", { enabled: true });
    count("statutory settings", 4);
  }
  // the deductor block of Form 16 and the quarterly TDS statement (24Q / Form 138): made-up TAN and PANs
  const incomeTax = await hr.get("/api/configuration/payroll/income-tax-settings");
  if (!incomeTax.deductor_tan) {
    const address = { lines: ["4th Floor, Prestige Tech", "Park, Marathahalli", "Bengaluru"], state_code: "15", pin: "560103" };
    await hr.post("/api/configuration/payroll/income-tax-settings", {
      ...{ deductor_tan: "BLRA12345B", deductor_pan: "AAACA1234B", deductor_type: "K", deductor_address: address },
      ...{ deductor_email: "payroll@acme-india.example", deductor_phone: "8041234567" },
      responsible_person: { name: "Meera Iyer", designation: "Finance Director", pan: "ABCPI1234K", address, mobile: "9876543210" },
    });
    count("income-tax settings");
  }

  section("salary components");
  const components = new Map<string, string>((await hr.all("/api/payroll/salary-components")).map((c) => [c.code, c.id]));
  const COMPONENTS = [
    { name: "Basic", code: "BASIC", type: "earning", calculation: "formula", formula: "round(CTC * 0.5, 2)", pf_wage: true, position: 1 },
    { name: "House rent allowance", code: "HRA", type: "earning", calculation: "formula", formula: "round(BASIC * 0.4, 2)", position: 2 },
    { name: "Conveyance allowance", code: "CONV", type: "earning", calculation: "fixed", amount: "1600.00", position: 3 },
    {
      name: "Special allowance",
      code: "SPECIAL",
      type: "earning",
      calculation: "formula",
      formula: "max(0, CTC - BASIC - HRA - CONV)",
      position: 4,
    },
  ]; // prettier-ignore
  for (const c of COMPONENTS) {
    if (components.has(c.code)) continue;
    components.set(c.code, (await hr.post("/api/payroll/salary-components", c)).id);
    count("salary components");
  }

  section("salary setups");
  await parallel(crew, 6, async (p) => {
    const got = await owner.call("GET", `/api/payroll/employee-setup/${ids[p.index]}`, undefined, [200, 404]);
    if (got.status === 200 && got.data?.current) return;
    await owner.put(`/api/payroll/employee-setup/${ids[p.index]}`, {
      effective_from: p.joining,
      monthly_ctc: money(Math.round(p.ctc / 100) * 100),
      components: [...components.values()].map((component_id) => ({ component_id })),
      pf_enabled: true,
      pt_enabled: true,
    });
    count("salary setups");
  });

  section("loans and claims");
  const loanTypes = await hr.all("/api/configuration/payroll/loan-types");
  const lastMonth = (() => {
    const [y, m] = today.split("-").map(Number);
    return m === 1 ? `${y - 1}-12` : `${y}-${pad(m - 1)}`;
  })();
  const thisMonth = today.slice(0, 7);
  if (!loanTypes.length) {
    const personal = await hr.post("/api/configuration/payroll/loan-types", { name: "Personal loan", max_installments: 24 });
    await hr.post("/api/configuration/payroll/loan-types", { name: "Salary advance", max_installments: 3 });
    const travel = await hr.post("/api/configuration/payroll/expense-categories", { name: "Travel", requires_receipt: false });
    const meals = await hr.post("/api/configuration/payroll/expense-categories", { name: "Client meals", requires_receipt: false });
    await hr.post("/api/configuration/payroll/expense-categories", { name: "Internet", requires_receipt: false });
    count("loans and claims", 5);
    const loan = await emp.post("/api/payroll/loan-advances", {
      loan_type_id: personal.id,
      amount: "60000.00",
      installments: 12,
      reason: "Home renovation",
    });
    void loan; // waiting for hr's decision
    for (let k = 0; k < 3; k++) {
      const l = await hr.post("/api/payroll/loan-advances", {
        employee_id: ids[pick(60 + k)],
        loan_type_id: personal.id,
        amount: money(50000 + k * 25000),
        installments: 10,
        start_month: thisMonth,
        reason: ["Medical expenses", "Two-wheeler purchase", "Child's school fees"][k],
      });
      await hr.put(`/api/payroll/loan-advances/${l.id}`, { status: k === 2 ? "rejected" : "approved", comment: "As discussed" });
    }
    await emp.post("/api/payroll/expense-claims", {
      category_id: travel.id,
      amount: "1840.00",
      expense_date: nthWorkday(today, -4),
      description: "Cab to the customer site in Whitefield and back",
    });
    for (let k = 0; k < 5; k++) {
      const c = await hr.post("/api/payroll/expense-claims", {
        employee_id: ids[pick(70 + k)],
        category_id: k % 2 ? meals.id : travel.id,
        amount: money(950 + k * 615),
        expense_date: nthWorkday(today, -(3 + k)),
        description: k % 2 ? "Lunch with the Tata Motors procurement team" : "Flight to Mumbai for the quarterly review",
      });
      if (k < 3)
        await hr.put(`/api/payroll/expense-claims/${c.id}`, {
          status: k === 2 ? "rejected" : "approved",
          comment: "Checked against the travel policy",
        });
    }
    count("loans and claims", 10);
  }

  // income tax at source: every employee's PAN is on the record (the new regime by default); a few
  // chose the old regime and declared investments and rent, verified by hr
  section("income tax");
  if (!(await hr.all("/api/payroll/tax-declarations")).length) {
    for (let k = 0; k < 4; k++) {
      const employeeId = ids[pick(90 + k)];
      await hr.put(`/api/payroll/tax-profiles/${employeeId}`, { regime: "old", city: k % 2 ? "Bengaluru" : "Mumbai" });
      const items = [
        { section: "80C", description: "PPF and ELSS", amount: money(150000) },
        { section: "80D_self", description: "Family health insurance", amount: money(18000 + k * 2000) },
        { section: "hra_rent", description: "Rent of the year", amount: money(240000 + k * 60000) },
      ];
      for (const [j, item] of items.entries()) {
        const d = await hr.post("/api/payroll/tax-declarations", { employee_id: employeeId, ...item });
        if (j < 2) await hr.put(`/api/payroll/tax-declarations/${d.id}`, { status: "verified" });
      }
      count("tax declarations", items.length);
    }
  }

  section("payroll runs");
  const runs = await hr.all("/api/payroll/draft-runs");
  if (!runs.some((r) => r.period === lastMonth)) {
    const run = await hr.post("/api/payroll/draft-runs", { period: lastMonth, notes: `Salaries of ${lastMonth}` });
    await hr.post(`/api/payroll/draft-runs/${run.id}/process`);
    count("payroll runs");
  }
  if (!runs.some((r) => r.period === thisMonth)) {
    await hr.post("/api/payroll/draft-runs", { period: thisMonth, notes: "Draft: attendance of the last week still to come" });
    count("payroll runs");
  }

  // -- recruitment ---------------------------------------------------------------------------------
  section("recruitment");
  const requisitions = await hr.all("/api/recruitment/job-requisitions");
  if (!requisitions.length) {
    const req = await mgr.post("/api/recruitment/job-requisitions", {
      title: "Senior Backend Engineer",
      department: "Engineering",
      positions: 2,
      employment_type: "full_time",
      justification: "Payments team: two engineers for the UPI integration this quarter",
      status: "pending_approval",
    });
    await hr.put(`/api/recruitment/job-requisitions/${req.id}`, { status: "approved", decision_notes: "Budget approved in the Q2 plan" });
    await mgr.post("/api/recruitment/job-requisitions", {
      title: "QA Automation Engineer",
      department: "Engineering",
      positions: 1,
      employment_type: "full_time",
      justification: "Regression suite for the mobile app",
    });
    const posting = await hr.post("/api/recruitment/job-postings", {
      requisition_id: req.id,
      description: "Design and run the services behind Acme's payroll and payments products.",
      requirements: "5+ years of backend development with Node.js or Java, PostgreSQL, and distributed systems.",
      skills: ["typescript", "node.js", "postgresql", "kafka"],
      status: "open",
    });
    const CANDIDATES = [
      ["Ritika", "Saxena", "applied", "linkedin"],
      ["Mohammed", "Siddiqui", "applied", "career_site"],
      ["Sanjana", "Pillai", "screening", "referral"],
      ["Aniket", "Deshpande", "screening", "job_board"],
      ["Tejas", "Kamath", "interview", "linkedin"],
      ["Lavanya", "Subramanian", "interview", "referral"],
      ["Nitin", "Bhatt", "rejected", "agency"],
    ];
    const managerUser = (await mgr.get("/api/auth/session")).user.id;
    let offerTo: string | undefined;
    for (const [k, [first, last, stage, source]] of CANDIDATES.entries()) {
      const c = await hr.post("/api/recruitment/candidates", {
        posting_id: posting.id,
        first_name: first,
        last_name: last,
        email: `${first}.${last}@mail.example`.toLowerCase(),
        phone: `+91 9${String(812345670 + k * 1111).slice(0, 4)} ${String(10000 + k * 2345).slice(0, 5)}`,
        source,
        current_company: ["Infosys", "Flipkart", "Razorpay", "Swiggy", "Freshworks", "Zoho", "Wipro"][k],
        current_title: "Software Engineer",
        experience_years: 4 + k,
        resume_text: `Backend engineer with ${4 + k} years of Node.js, TypeScript and PostgreSQL; built payment services at scale.`,
        skills: ["typescript", "postgresql", k % 2 ? "kafka" : "aws"],
      });
      const order = ["applied", "screening", "interview"];
      if (stage === "rejected")
        await hr.put(`/api/recruitment/candidates/${c.id}`, { stage: "rejected", rejection_reason: "Looking for a frontend role" });
      else for (const s of order.slice(1, order.indexOf(stage) + 1)) await hr.put(`/api/recruitment/candidates/${c.id}`, { stage: s });
      if (stage === "interview" && !offerTo) offerTo = c.id;
      else if (stage === "interview")
        await hr.post("/api/recruitment/interviews", {
          candidate_id: c.id,
          round_name: "System design",
          scheduled_at: ist(nthWorkday(today, 2), 15, 0),
          duration_minutes: 60,
          mode: "video",
          meeting_url: "https://meet.example.com/acme-system-design",
          interviewer_user_ids: [managerUser],
        });
    }
    const offer = await hr.post("/api/recruitment/offers", {
      candidate_id: offerTo,
      salary: "2800000.00",
      joining_date: nthWorkday(today, 30),
      expires_on: addDays(today, 10),
      terms: "Includes a joining bonus of ₹1,50,000, recoverable if you leave within 12 months.",
    });
    await hr.post(`/api/recruitment/offers/${offer.id}/send`);
    await hr.post("/api/recruitment/talent-pool-candidates", {
      first_name: "Zoya",
      last_name: "Qureshi",
      email: "zoya.qureshi@mail.example",
      current_title: "Data Engineer",
      experience_years: 5,
      skills: ["python", "spark", "sql"],
      tags: ["data", "next-quarter"],
    });
    count("recruitment", CANDIDATES.length + 5);
  }

  // -- helpdesk ----------------------------------------------------------------------------------------
  section("helpdesk");
  const tickets = await hr.call("GET", "/api/helpdesk/tickets?limit=1");
  if (!tickets.body.pagination?.total) {
    const hrUser = (await hr.get("/api/auth/session")).user.id;
    const TICKETS = [
      [
        emp,
        "Payslip shows wrong PAN",
        "payroll",
        "high",
        "My payslip for last month shows an old PAN number. Please update it.",
        "in_progress",
      ],
      [emp, "Laptop battery drains fast", "it", "medium", "The battery lasts under an hour since last week.", "open"],
      [
        mgr,
        "Access card for new joiner",
        "facilities",
        "low",
        "Please issue an access card for the engineer joining on Monday.",
        "resolved",
      ],
      [
        mgr,
        "Leave balance not updated",
        "leave",
        "medium",
        "My earned leave balance does not show the carry-forward from last year.",
        "closed",
      ],
      [hr, "Form 16 for last year", "finance", "medium", "When will Form 16 be available for download?", "open"],
    ] as const; // prettier-ignore
    for (const [who, title, category, priority, description, status] of TICKETS) {
      const t = await who.post("/api/helpdesk/tickets", { title, category, priority, description });
      if (status !== "open") {
        await hr.put(`/api/helpdesk/tickets/${t.id}`, { status: "in_progress", assignee_user_id: hrUser });
        await hr.post(`/api/helpdesk/tickets/${t.id}/messages`, { body: "Looking into this; I will update you by tomorrow." });
      }
      if (status === "resolved" || status === "closed") await hr.put(`/api/helpdesk/tickets/${t.id}`, { status: "resolved" });
      if (status === "closed") await hr.put(`/api/helpdesk/tickets/${t.id}`, { status: "closed" });
      count("helpdesk");
    }
  }

  // -- assets ------------------------------------------------------------------------------------------
  section("assets");
  const categories = new Map<string, string>((await hr.all("/api/configuration/asset-categories")).map((c) => [c.name, c.id]));
  for (const [name, description] of [
    ["Laptops", "Company laptops"],
    ["Mobile phones", "Phones for on-call staff"],
    ["Monitors", "External displays"],
  ]) {
    if (categories.has(name)) continue;
    categories.set(name, (await hr.post("/api/configuration/asset-categories", { name, description })).id);
    count("assets");
  }
  const ASSETS: [string, string, string, number][] = [];
  for (let k = 0; k < 24; k++)
    ASSETS.push([`LT-${pad(k + 1)}`, k % 3 ? "Lenovo ThinkPad T14 Gen 4" : "Apple MacBook Pro 14 M3", "Laptops", k % 3 ? 98000 : 189900]);
  for (let k = 0; k < 6; k++) ASSETS.push([`PH-${pad(k + 1)}`, "Samsung Galaxy S23", "Mobile phones", 74999]);
  for (let k = 0; k < 8; k++) ASSETS.push([`MN-${pad(k + 1)}`, 'Dell UltraSharp U2723QE 27"', "Monitors", 52000]);
  const assets = new Map<string, { id: string; status: string }>((await hr.all("/api/assets")).map((a) => [a.asset_tag, a]));
  for (const [k, [tag, name, category, cost]] of ASSETS.entries()) {
    if (assets.has(tag)) continue;
    const a = await hr.post("/api/assets", {
      asset_tag: tag,
      name,
      category_id: categories.get(category),
      serial_number: `SN${tag.replace("-", "")}${48213 + k * 17}`,
      purchase_date: addDays(today, -(60 + k * 23)),
      purchase_cost: money(cost),
      warranty_expires_on: addDays(today, 1000 - k * 23),
      condition: k % 9 === 4 ? "fair" : "good",
    });
    assets.set(tag, a);
    count("assets");
  }
  // 18 laptops (the first to the demo employee), and a phone the demo employee asks to return
  const assignments = await hr.all("/api/assets/assignments");
  const holders = [report.index, ...crew.filter((p) => p.index !== report.index && p.index > 0).map((p) => p.index)];
  const plan = [
    ...ASSETS.slice(0, Math.min(18, holders.length)).map(([tag], k) => [tag, holders[k]] as const),
    [ASSETS[24][0], report.index] as const,
  ];
  for (const [tag, holder] of plan) {
    const asset = assets.get(tag) as { id: string };
    if (assignments.some((x) => x.asset_id === asset.id)) continue;
    const made = await hr.post("/api/assets/assignments", { asset_id: asset.id, employee_id: ids[holder] });
    if (tag === ASSETS[24][0])
      await emp.post("/api/assets/return-requests", { assignment_id: made.id, reason: "I no longer need a company phone" });
    if (tag === ASSETS[0][0])
      await emp.post("/api/assets/damage-reports", {
        asset_id: asset.id,
        severity: "minor",
        description: "Cracked hinge on the left side after a fall",
      });
    count("assets");
  }

  // -- integrations: an API credential and a webhook endpoint (docs/integrations.md) ------------------------
  section("integrations");
  let credentialSecret: string | undefined;
  const credentials = await owner.get<{ name: string; revoked_at: string | null }[]>("/api/integrations/credentials");
  if (!credentials.some((c) => c.name === DEMO_CREDENTIAL && !c.revoked_at)) {
    const issued = await owner.post<{ secret: string }>("/api/integrations/credentials", {
      name: DEMO_CREDENTIAL,
      role: "hr",
      scopes: ["employees:read", "leave:read", "attendance:read"],
    });
    credentialSecret = issued.secret; // shown once: printed by scripts/db/seed.ts
    count("integrations");
  }
  const endpoints = await owner.get<{ id: string; url: string }[]>("/api/integrations/webhooks");
  if (!endpoints.some((x) => x.url === DEMO_WEBHOOK_URL)) {
    const made = await owner.post<{ endpoint?: { id: string }; id?: string }>("/api/integrations/webhooks", {
      url: DEMO_WEBHOOK_URL,
      description: "Demo endpoint (disabled: point it at your receiver and enable it)",
      event_types: ["employee.created", "employee.updated", "leave_request.created"],
    });
    const id = made.endpoint?.id ?? made.id;
    if (id) await owner.put(`/api/integrations/webhooks/${id}`, { enabled: false });
    count("integrations");
  }

  section();
  return { company: DEMO_COMPANY, tenantId, employees: crew.length, signIns, added, credentialSecret };
}
