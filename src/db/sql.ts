// Raw SQL that cannot forget the tenant: `sql` is a tagged template (values are bind parameters), and
// `tenant` a placeholder each runner binds to the active tenant; a statement without it, or run without a
// tenant, is refused (TenantScopeError). scripts/checks/check-sql.ts is the static half (docs/architecture.md).
import pg from "pg";
import { Prisma } from "../../generated/prisma/client.ts";
import { getPool, viaPooler } from "./client.ts";
import { currentTenantId, db, statementName, TenantScopeError, type ScopedTx } from "./tenancy.ts";

/** Placeholder for the active tenant in a `sql` template; typed `uuid` where it is used. */
export const tenant: unique symbol = Symbol("active tenant");

/** A statement or a fragment of one. Fragments compose: `sql\`... ${fragment} ...\``. */
export type Sql = Prisma.Sql;

/** Where a statement was written (its template's strings) and the fragments composed into it, for `preparedText`. */
const SITE = Symbol("template site");
type Sited = Sql & { [SITE]?: { strings: TemplateStringsArray; fragments: readonly Sql[] } };
const NO_FRAGMENTS: readonly Sql[] = Object.freeze([]);

/** Tagged template: values are parameters; `tenant` is the active tenant; nested `sql` fragments compose. */
export function sql(strings: TemplateStringsArray, ...values: unknown[]): Sql {
  const statement: Sited = Prisma.sql(strings, ...values);
  let fragments: Sql[] | undefined;
  for (const v of values) {
    if (!(v instanceof Prisma.Sql)) continue;
    fragments ??= [];
    fragments.push(v);
  }
  statement[SITE] = { strings, fragments: fragments ?? NO_FRAGMENTS };
  return statement;
}

/**
 * The text of a statement from one template and the same fragment objects (module constants) is the
 * same every time: made, and its prepared statement's name hashed, once per template. A hot read's
 * text is ~2 kB built afresh per request; hashing it for its name was ~3 us of a profile read's CPU.
 */
const shapes = new WeakMap<TemplateStringsArray, { fragments: readonly Sql[]; text: string; name: string }>();
function preparedText(statement: Sql): { text: string; name: string } {
  const site = (statement as Sited)[SITE];
  const known = site && shapes.get(site.strings);
  if (known && known.fragments.length === site.fragments.length && known.fragments.every((f, i) => f === site.fragments[i])) return known;
  const text = statement.text;
  const shape = { fragments: site?.fragments ?? NO_FRAGMENTS, text, name: statementName(text) };
  // the first shape of a template is kept (one whose fragments are made per call is named each time)
  if (site && !known) shapes.set(site.strings, shape);
  return shape;
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

/** A read on the pool without the ORM (0.3 ms less CPU), planned for its parameters each time (a LIKE pattern); no transaction. */
export async function read<T>(statement: Sql): Promise<T[]> {
  return (await getPool().query(statement.text, bind(statement, "read"))).rows as T[];
}

/** `read` as a named prepared statement, for fixed statements with named columns (`*` breaks on a new column). */
export async function readPrepared<T>(statement: Sql): Promise<T[]> {
  // through a transaction-mode pooler the next statement may run on another server connection,
  // which has not prepared it: unnamed there (planned each time; docs/operations.md, "Connection pooler")
  const { text, name } = preparedText(statement);
  return (await getPool().query({ name: viaPooler() ? undefined : name, text, values: bind(statement, "readPrepared") })).rows as T[];
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
 * A named statement preceded, in the same implicit transaction (up to Sync), by GENERIC_PLAN_SETTINGS:
 * one round trip where SET and RESET cost two more. The callback gets two results. A subclass of
 * node-postgres's Query, as pg-cursor's are; tested by test/platform/tenancy.test.ts.
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
 * `readPrepared` with the statement's generic plan, made once per connection: for fixed statements whose
 * planning costs more than their execution (docs/decisions/0004-generic-plan-reads.md). The statement's
 * plan must not depend on its values; JIT is off (generic estimates can pass jit_above_cost). Both
 * settings last only the round trip (GenericPlanQuery).
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
      const { text, name } = preparedText(statement);
      const config = { name: viaPooler() ? undefined : name, text, values };
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
 * Locks rows of a tenant-owned table `FOR UPDATE`, in id order (no deadlock), and returns the ids found:
 * another tenant's, a missing (or with `live`, soft-deleted) one is not.
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
