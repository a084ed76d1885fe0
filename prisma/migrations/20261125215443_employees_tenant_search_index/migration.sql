-- The employee search's trigram index with the tenant as its first column (btree_gin), beside the
-- plain one: a search of a company among others reads only that company's matches (see
-- prisma/schema/employees.prisma).

-- CreateExtension
CREATE EXTENSION IF NOT EXISTS "btree_gin";

-- CreateIndex
CREATE INDEX "employees_live_tenant_search_trgm_idx" ON "employees" USING GIN ("tenant_id" uuid_ops, "search_text" gin_trgm_ops) WHERE (deleted_at IS NULL);
