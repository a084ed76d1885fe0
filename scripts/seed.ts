// `make seed`: a demo tenant with realistic data, idempotent. Prints the demo sign-in.
import pg from "pg";
import { hashPassword } from "../src/platform/identity/passwords.ts";
import { ensureDatabase } from "../src/db/embedded.ts";
import { deployMigrations } from "../src/db/migrations.ts";

export const DEMO_EMAIL = "demo.owner@hrms.local";
export const DEMO_PASSWORD = "demo-password-2026";

const FIRST = [
  "Aarav",
  "Priya",
  "Rohan",
  "Ananya",
  "Vikram",
  "Meera",
  "Arjun",
  "Kavya",
  "Siddharth",
  "Ishita",
  "Karthik",
  "Divya",
  "Farhan",
  "Neha",
  "Rahul",
  "Sneha",
  "Aditya",
  "Pooja",
  "Omar",
  "Fatima",
  "Yusuf",
  "Aisha",
  "Rajesh",
  "Lakshmi",
  "Manoj",
];
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
  "Al Mansoori",
];
const DEPARTMENTS: [string, string[]][] = [
  ["Engineering", ["Software Engineer", "Senior Software Engineer", "Engineering Manager"]],
  ["Sales", ["Account Executive", "Sales Manager"]],
  ["Human Resources", ["HR Generalist", "HR Manager"]],
  ["Finance", ["Accountant", "Finance Manager"]],
  ["Operations", ["Operations Associate", "Operations Lead"]],
];

async function main() {
  const database = await ensureDatabase();
  await deployMigrations(database.url);
  const db = new pg.Client({ connectionString: database.url });
  await db.connect();
  try {
    const existing = await db.query("SELECT id FROM users WHERE email = $1", [DEMO_EMAIL]);
    if (existing.rowCount) {
      console.log(`Demo tenant already seeded. Sign in with ${DEMO_EMAIL} / ${DEMO_PASSWORD}`);
      return;
    }
    await db.query("BEGIN");
    const user = (
      await db.query("INSERT INTO users (email, name, password_hash) VALUES ($1, 'Devika Owner', $2) RETURNING id", [
        DEMO_EMAIL,
        await hashPassword(DEMO_PASSWORD),
      ])
    ).rows[0];
    const tenant = (
      await db.query(
        "INSERT INTO tenants (name, legal_name, currency, timezone, address) VALUES ('Acme India', " +
          "'Acme India Private Limited', 'INR', 'Asia/Kolkata', '4th Floor, Prestige Tech Park, Bengaluru 560103') " +
          "RETURNING id",
      )
    ).rows[0];
    await db.query("INSERT INTO memberships (tenant_id, user_id, role) VALUES ($1, $2, 'owner')", [tenant.id, user.id]);
    let n = 0;
    const managers: Record<string, string> = {};
    for (const [dept, titles] of DEPARTMENTS) {
      for (let i = 0; i < 5; i++) {
        n++;
        const first = FIRST[(n * 7) % FIRST.length];
        const last = LAST[(n * 5) % LAST.length];
        const title = i === 0 ? titles[titles.length - 1] : titles[i % (titles.length - 1 || 1)];
        const joined = `20${18 + (n % 8)}-${String((n % 12) + 1).padStart(2, "0")}-${String((n % 27) + 1).padStart(2, "0")}`;
        const dob = `19${80 + (n % 18)}-${String(((n * 3) % 12) + 1).padStart(2, "0")}-${String(((n * 5) % 27) + 1).padStart(2, "0")}`;
        const row = (
          await db.query(
            `INSERT INTO employees (tenant_id, employee_code, first_name, last_name, email, ` +
              `phone, department, designation, joining_date, date_of_birth, gender, employment_type, ` +
              `status, reports_to, state, bank_name, bank_account_number, bank_ifsc)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, 'full_time', ` +
              `'active', $12, 'Karnataka', 'HDFC Bank', $13, 'HDFC0001234') RETURNING id`,
            [
              tenant.id,
              `EMP-${String(n).padStart(5, "0")}`,
              first,
              last,
              `${`${first}.${last}.${n}`.toLowerCase().replace(/\s+/g, "")}@acme.example`,
              `+91 98${String(45000000 + n * 7919).slice(0, 8)}`,
              dept,
              title,
              joined,
              dob,
              n % 2 ? "male" : "female",
              i === 0 ? null : managers[dept],
              `5010${String(10000000 + n * 104729).slice(0, 8)}`,
            ],
          )
        ).rows[0];
        if (i === 0) managers[dept] = row.id;
      }
    }
    await db.query(
      "INSERT INTO audit_logs (tenant_id, actor_user_id, actor_email, action, " +
        "entity_type, entity_id) VALUES ($1, $2, $3, 'tenant.created', 'tenant', $1)",
      [tenant.id, user.id, DEMO_EMAIL],
    );
    await db.query("COMMIT");
    console.log(`Seeded demo tenant "Acme India" with ${n} employees. Sign in with ${DEMO_EMAIL} / ${DEMO_PASSWORD}`);
  } catch (err) {
    await db.query("ROLLBACK").catch(() => {});
    throw err;
  } finally {
    await db.end();
    await database.stop();
  }
}

await main();
