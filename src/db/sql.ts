// Raw SQL that cannot forget the tenant: the one entry for SQL the ORM cannot express.
//
//   import { query, sql, tenant } from "../../db/sql.ts";
//   const rows = await query<{ id: string }>(sql`SELECT id FROM employees WHERE tenant_id = ${tenant} AND ...`, tx);
//
// `sql` is a tagged template (values become bind parameters, never text); `tenant` is a placeholder
// that each runner replaces by the active tenant (src/db/tenancy.ts) when the statement runs. A
// statement without the placeholder, or run without an active tenant, is refused before it reaches
// the database (TenantScopeError). `make test` (scripts/checks/check-sql.ts) adds the static half: raw SQL
// lives only in an area's query files, and every tenant-owned table a statement names is filtered
// by the tenant (`<alias>.tenant_id = ${tenant}`, or joined on another filtered alias's tenant_id).
import pg from "pg";
import { Prisma } from "../../generated/prisma/client.ts";
import { getPool, viaPooler } from "./client.ts";
import { currentTenantId, db, statementName, TenantScopeError, type ScopedTx } from "./tenancy.ts";

/** Placeholder for the active tenant in a `sql` template; typed `uuid` where it is used. */
export const tenant: unique symbol = Symbol("active tenant");

/** A statement or a fragment of one. Fragments compose: `sql\`... ${fragment} ...\``. */
export type Sql = Prisma.Sql;

/** Tagged template: values are parameters; `tenant` is the active tenant; nested `sql` fragments compose. */
export function sql(strings: TemplateStringsArray, ...values: unknown[]): Sql {
  return Prisma.sql(strings, ...values);
}

/** The empty fragment and a list joined by a separator (both from Prisma, here so areas import one module). */
export const empty: Sql = Prisma.empty;
export const join = (parts: readonly Sql[], separator = ", "): Sql => Prisma.join(parts as Sql[], separator);

// The placeholder travels inside Prisma.Sql as a parameter value until a runner binds it. A
// symbol is not a value PostgreSQL could receive, so a statement that bypasses the runners fails.
const TENANT_VALUE = tenant as unknown as string;

/** The statement's parameters with the active tenant bound; refuses a statement without the placeholder. */
function bind(statement: Sql, runner: string): unknown[] {
  const tenantId = currentTenantId();
  let found = false;
  const values = statement.values.map((v) => {
    if (v !== TENANT_VALUE) return v;
    found = true;
    return tenantId;
  });
  if (!found) throw new TenantScopeError(`${runner}: the statement must filter on the active tenant (\${tenant})`);
  return values;
}

const bound = (statement: Sql, runner: string) => new Prisma.Sql(statement.strings, bind(statement, runner) as Prisma.Sql["values"]);

type RawClient = Pick<ScopedTx, "$queryRaw" | "$executeRaw">;

/** Runs a statement returning rows, on the scoped client or the caller's transaction. */
export async function query<T>(statement: Sql, client: RawClient = db): Promise<T[]> {
  return (await client.$queryRaw<T[]>(bound(statement, "query"))) as T[];
}

/** Runs a statement for its effect; returns the number of rows it changed. */
export async function execute(statement: Sql, client: RawClient = db): Promise<number> {
  return client.$executeRaw(bound(statement, "execute"));
}

/**
 * A read straight on the pool, without the ORM, for the hottest reads (Prisma costs 0.3 ms of CPU
 * more per query than the same SQL on the pool), planned for its parameters each time (for
 * statements whose best plan depends on a value, such as a LIKE pattern). Not inside a transaction.
 */
export async function read<T>(statement: Sql): Promise<T[]> {
  return (await getPool().query(statement.text, bind(statement, "read"))).rows as T[];
}

/**
 * `read` as a named (server-side prepared) statement: parsed and planned once per connection. For
 * fixed statements whose result columns are named (a `*` would break when a migration adds a
 * column under a running server).
 */
export async function readPrepared<T>(statement: Sql): Promise<T[]> {
  // through a transaction-mode pooler the next statement may run on another server connection,
  // which has not prepared it: unnamed there (planned each time; docs/operations.md, "Connection pooler")
  const name = viaPooler() ? undefined : statementName(statement.text);
  return (await getPool().query({ name, text: statement.text, values: bind(statement, "readPrepared") })).rows as T[];
}

/** What readGenericPlan's statements run under: transaction-local, so over when its round trip ends. */
const GENERIC_PLAN_SETTINGS = "SELECT set_config('plan_cache_mode', 'force_generic_plan', true), set_config('jit', 'off', true)";
const GENERIC_PLAN_SETTINGS_NAME = "hrms_generic_plan_settings";

/** The parts of node-postgres's connection and Query (pg 8.23, pinned) that GenericPlanQuery uses. */
interface PgConnection {
  parse(m: { text: string; name: string; types: unknown[] }): void;
  bind(m: { statement: string; portal: string; values: unknown[] }): void;
  describe(m: { type: "P"; name: string }): void;
  execute(m: { portal: string }): void;
  parsedStatements: Record<string, string | undefined>;
}
interface PgQuery {
  name?: string;
  prepare(connection: PgConnection): void;
  handleError(err: Error, connection: PgConnection): void;
}
type Callback = (err: Error | null, results: pg.QueryResult | pg.QueryResult[]) => void;
const BaseQuery = pg.Query as unknown as new (config: pg.QueryConfig, values: undefined, callback: Callback) => PgQuery;

/** Connections on which GENERIC_PLAN_SETTINGS is a prepared statement already. */
const settingsPrepared = new WeakSet<PgConnection>();

/**
 * A named statement preceded, in the same write and the same implicit transaction (the extended
 * protocol's messages up to Sync), by GENERIC_PLAN_SETTINGS: the statement is planned (at its Bind)
 * under them, and they end with the transaction at Sync. One round trip, where SET before and
 * RESET after cost two more (about 0.25 ms of the server's CPU each time). The callback receives
 * two results, the settings' and the statement's. Built on node-postgres's Query (its `prepare`,
 * which writes Parse/Bind/Describe/Execute/Sync): a subclass as pg-cursor's are, tested by
 * test/platform/tenancy.test.ts.
 */
class GenericPlanQuery extends BaseQuery {
  private parsing = false;
  /** Always the extended protocol (an unnamed query without values would otherwise be sent as a simple query). */
  requiresPreparation(): boolean {
    return true;
  }
  prepare(connection: PgConnection): void {
    // through a pooler (an unnamed query): the settings unnamed too, parsed in every round trip
    const settings = this.name === undefined ? "" : GENERIC_PLAN_SETTINGS_NAME;
    if (settings === "" || !settingsPrepared.has(connection)) {
      connection.parse({ text: GENERIC_PLAN_SETTINGS, name: settings, types: [] });
      if (settings) settingsPrepared.add(connection);
    }
    connection.bind({ statement: settings, portal: "", values: [] });
    connection.describe({ type: "P", name: "" });
    connection.execute({ portal: "" });
    this.parsing = this.name !== undefined && connection.parsedStatements[this.name] === undefined;
    super.prepare(connection);
  }
  handleError(err: Error, connection: PgConnection): void {
    // node-postgres records the statement as parsed at the first ParseComplete of the round trip
    // (the settings'): if the batch failed, neither may exist on the server
    settingsPrepared.delete(connection);
    if (this.parsing && this.name !== undefined) delete connection.parsedStatements[this.name];
    super.handleError(err, connection);
  }
}

/**
 * `readPrepared` run with the statement's generic plan, made once per connection and reused: for
 * a fixed statement whose planning costs more than its execution (many CTEs, LATERAL subqueries
 * and sublinks). Left to itself PostgreSQL plans such a statement afresh for every execution
 * whenever the generic plan's estimate (which cannot see LIMIT/OFFSET or the tenant's values)
 * exceeds the custom plans' - which can be always. The statement must be written so that its plan
 * does not depend on its values (LATERAL per-row lookups instead of joins the planner would size
 * from the estimates). JIT compilation is off for it: the generic plan's estimates (a LIMIT of
 * unknown size counts as a tenth of the table) can pass jit_above_cost, and compiling on every
 * execution costs far more than such a statement runs. Both settings are local to the statement's
 * round trip (GenericPlanQuery): the connection goes back to the pool as it was.
 */
export async function readGenericPlan<T>(statement: Sql): Promise<T[]> {
  const values = bind(statement, "readGenericPlan");
  const client = await getPool().connect();
  let failed: Error | undefined;
  const lost = (err: Error) => {
    failed = err; // a connection lost while held: not an uncaught 'error' event (see rawTx)
  };
  client.on("error", lost);
  try {
    const results = await new Promise<pg.QueryResult | pg.QueryResult[]>((resolve, reject) => {
      // through a transaction-mode pooler: unnamed (see readPrepared)
      const config = { name: viaPooler() ? undefined : statementName(statement.text), text: statement.text, values };
      client.query(new GenericPlanQuery(config, undefined, (err, res) => (err ? reject(err) : resolve(res))) as unknown as pg.Submittable);
    });
    if (!Array.isArray(results) || results.length !== 2)
      throw new Error("readGenericPlan: expected the settings' and the statement's results");
    return results[1].rows as T[];
  } catch (err) {
    failed = err as Error;
    throw err;
  } finally {
    // as pool.query does: a connection whose statement failed is not reused
    client.off("error", lost);
    client.release(failed);
  }
}

const TABLE = /^[a-z][a-z0-9_]*$/;

/**
 * Locks rows of a tenant-owned table for the rest of the transaction (`SELECT … FOR UPDATE`, in id
 * order so that two transactions locking the same rows cannot deadlock) and returns the ids found:
 * another tenant's id, or one that does not exist (or is soft-deleted, with `live`), is not returned.
 */
export async function lockRows(tx: RawClient, table: string, ids: readonly string[], opts: { live?: boolean } = {}): Promise<string[]> {
  if (!TABLE.test(table)) throw new TenantScopeError(`lockRows: not a table name: ${JSON.stringify(table)}`);
  if (!ids.length) return [];
  const name = Prisma.raw(table); // a checked identifier; the table must have tenant_id (else the statement fails)
  const live = opts.live ? sql`AND deleted_at IS NULL` : empty;
  const rows = await query<{ id: string }>(
    sql`SELECT id FROM ${name} WHERE tenant_id = ${tenant}::uuid AND id = ANY(${[...new Set(ids)]}::uuid[]) ${live} ORDER BY id FOR UPDATE`,
    tx,
  );
  return rows.map((r) => r.id);
}

/** Locks one row (see lockRows); false when it is not the active tenant's or does not exist. */
export async function lockRow(tx: RawClient, table: string, id: string, opts: { live?: boolean } = {}): Promise<boolean> {
  return (await lockRows(tx, table, [id], opts)).length === 1;
}
