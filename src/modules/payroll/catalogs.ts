// Payroll catalogs: loan types and expense categories (named, per company, deactivatable).
import { audit, diff } from "../../platform/audit.ts";
import { byId, type ById, db, tenantTx, type ScopedTx } from "../../db/tenancy.ts";
import { conflict, notFound } from "../../platform/errors.ts";
import { moneyStringOrNull, percentString } from "../../lib/money.ts";

type LoanTypeRow = Awaited<ReturnType<typeof db.loanType.findFirstOrThrow>>;
type ExpenseCategoryRow = Awaited<ReturnType<typeof db.expenseCategory.findFirstOrThrow>>;

export const loanTypeJson = (r: LoanTypeRow) => ({
  id: r.id,
  name: r.name,
  description: r.description,
  max_amount: moneyStringOrNull(r.max_amount),
  max_installments: r.max_installments,
  interest_rate: percentString(r.interest_rate),
  active: r.active,
  created_at: r.created_at.toISOString(),
  updated_at: r.updated_at.toISOString(),
});

export const expenseCategoryJson = (r: ExpenseCategoryRow) => ({
  id: r.id,
  name: r.name,
  description: r.description,
  max_claim_amount: moneyStringOrNull(r.max_claim_amount),
  requires_receipt: r.requires_receipt,
  active: r.active,
  created_at: r.created_at.toISOString(),
  updated_at: r.updated_at.toISOString(),
});

/** The part of a catalog model's delegate (db.loanType, tx.expenseCategory) the catalog uses. */
interface CatalogDelegate<Row> {
  findFirst(args: { where: { id?: string; name?: { equals: string; mode: "insensitive" }; NOT?: { id: string } } }): Promise<Row | null>;
  findMany(args: { where: { active?: boolean }; orderBy: { name: "asc" } }): Promise<Row[]>;
  create(args: { data: { name: string } }): Promise<Row>;
  update(args: { where: ById; data: Record<string, unknown> }): Promise<Row>;
  delete(args: { where: ById }): Promise<Row>;
}

/** List/read/create/update/delete of a named catalog row as JSON, with name uniqueness (409) and audit. */
export function catalog<Row extends { id: string; name: string }, Json>(opts: {
  entity: string;
  label: string;
  delegate: () => CatalogDelegate<Row>;
  txDelegate: (tx: ScopedTx) => CatalogDelegate<Row>;
  json: (row: Row) => Json;
}) {
  async function assertNameFree(name: string, exceptId?: string) {
    const clash = await opts
      .delegate()
      .findFirst({ where: { name: { equals: name.trim(), mode: "insensitive" }, ...(exceptId ? { NOT: { id: exceptId } } : {}) } });
    if (clash) throw conflict(`A ${opts.label} named "${name.trim()}" already exists`);
  }
  async function load(id: string): Promise<Row> {
    const row = await opts.delegate().findFirst({ where: { id } });
    if (!row) throw notFound(opts.label[0].toUpperCase() + opts.label.slice(1));
    return row;
  }
  return {
    async list(active?: boolean): Promise<Json[]> {
      return (await opts.delegate().findMany({ where: active === undefined ? {} : { active }, orderBy: { name: "asc" } })).map(opts.json);
    },
    async get(id: string): Promise<Json> {
      return opts.json(await load(id));
    },
    /** `data` as the create schema checked it (name required). */
    async create(data: Record<string, unknown>): Promise<Json> {
      await assertNameFree(String(data.name));
      return tenantTx(async (tx) => {
        const row = await opts.txDelegate(tx).create({ data: { ...data, name: String(data.name).trim() } });
        await audit({ action: `${opts.entity}.created`, entity_type: opts.entity, entity_id: row.id, changes: { name: row.name } }, tx);
        return opts.json(row);
      });
    },
    async update(id: string, data: Record<string, unknown>): Promise<Json> {
      const before = await load(id);
      if (typeof data.name === "string") await assertNameFree(data.name, id);
      return tenantTx(async (tx) => {
        const row = await opts
          .txDelegate(tx)
          .update({ where: byId(id), data: typeof data.name === "string" ? { ...data, name: data.name.trim() } : data });
        const changes = diff(before as Record<string, unknown>, row, Object.keys(data));
        if (Object.keys(changes).length)
          await audit({ action: `${opts.entity}.updated`, entity_type: opts.entity, entity_id: id, changes }, tx);
        return opts.json(row);
      });
    },
    async remove(id: string): Promise<void> {
      const before = await load(id);
      await tenantTx(async (tx) => {
        await opts.txDelegate(tx).delete({ where: byId(id) });
        await audit({ action: `${opts.entity}.deleted`, entity_type: opts.entity, entity_id: id, changes: { name: before.name } }, tx);
      });
    },
  };
}

/** Loan types: name, limits (amount, installments) and interest rate. */
export const loanTypes = catalog<LoanTypeRow, ReturnType<typeof loanTypeJson>>({
  entity: "loan_type",
  label: "loan type",
  delegate: () => db.loanType,
  txDelegate: (tx) => tx.loanType,
  json: loanTypeJson,
});
/** Expense categories: name, claim limit and whether a receipt is required. */
export const expenseCategories = catalog<ExpenseCategoryRow, ReturnType<typeof expenseCategoryJson>>({
  entity: "expense_category",
  label: "expense category",
  delegate: () => db.expenseCategory,
  txDelegate: (tx) => tx.expenseCategory,
  json: expenseCategoryJson,
});
