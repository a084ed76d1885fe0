-- Statutory settings become the general per-tenant settings documents (kind = pf, esi, pt,
-- gratuity, interview_panel, ...): a rename, keeping the rows.
ALTER TABLE "statutory_settings" RENAME TO "tenant_settings";
ALTER TABLE "tenant_settings" RENAME CONSTRAINT "statutory_settings_pkey" TO "tenant_settings_pkey";
ALTER INDEX "statutory_settings_id_key" RENAME TO "tenant_settings_id_key";
ALTER INDEX "statutory_settings_tenant_id_kind_key" RENAME TO "tenant_settings_tenant_id_kind_key";
