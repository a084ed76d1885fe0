-- Composite tenant foreign keys for the company-owned references that had none: a row may only
-- point at a row of its own company, whatever path wrote it. References that point at no row of
-- their company (another company's id, or none) are cleared first - they could only have been
-- written before this check: a holiday of another company's branch or work location applied to no
-- employee of its own company and is removed; a file or employee reference becomes null.
DELETE FROM "holidays" h WHERE (h.branch_id IS NOT NULL
    AND NOT EXISTS (SELECT 1 FROM "branches" b WHERE b.tenant_id = h.tenant_id AND b.id = h.branch_id))
  OR (h.work_location_id IS NOT NULL
    AND NOT EXISTS (SELECT 1 FROM "work_locations" w WHERE w.tenant_id = h.tenant_id AND w.id = h.work_location_id));
UPDATE "asset_damage_reports" r SET file_id = NULL WHERE file_id IS NOT NULL
  AND NOT EXISTS (SELECT 1 FROM "files" f WHERE f.tenant_id = r.tenant_id AND f.id = r.file_id);
UPDATE "leave_requests" r SET attachment_file_id = NULL WHERE attachment_file_id IS NOT NULL
  AND NOT EXISTS (SELECT 1 FROM "files" f WHERE f.tenant_id = r.tenant_id AND f.id = r.attachment_file_id);
UPDATE "expense_claims" r SET receipt_file_id = NULL WHERE receipt_file_id IS NOT NULL
  AND NOT EXISTS (SELECT 1 FROM "files" f WHERE f.tenant_id = r.tenant_id AND f.id = r.receipt_file_id);
UPDATE "candidates" r SET resume_file_id = NULL WHERE resume_file_id IS NOT NULL
  AND NOT EXISTS (SELECT 1 FROM "files" f WHERE f.tenant_id = r.tenant_id AND f.id = r.resume_file_id);
UPDATE "talent_pool_candidates" r SET resume_file_id = NULL WHERE resume_file_id IS NOT NULL
  AND NOT EXISTS (SELECT 1 FROM "files" f WHERE f.tenant_id = r.tenant_id AND f.id = r.resume_file_id);
UPDATE "job_requisitions" r SET requested_by_employee_id = NULL WHERE requested_by_employee_id IS NOT NULL
  AND NOT EXISTS (SELECT 1 FROM "employees" e WHERE e.tenant_id = r.tenant_id AND e.id = r.requested_by_employee_id);
UPDATE "helpdesk_tickets" r SET requester_employee_id = NULL WHERE requester_employee_id IS NOT NULL
  AND NOT EXISTS (SELECT 1 FROM "employees" e WHERE e.tenant_id = r.tenant_id AND e.id = r.requester_employee_id);

-- AlterTable
ALTER TABLE "imports" ADD COLUMN     "actor_credential_id" UUID;

-- AddForeignKey
ALTER TABLE "asset_damage_reports" ADD CONSTRAINT "asset_damage_reports_tenant_id_file_id_fkey" FOREIGN KEY ("tenant_id", "file_id") REFERENCES "files"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE NO ACTION;

-- AddForeignKey
ALTER TABLE "helpdesk_tickets" ADD CONSTRAINT "helpdesk_tickets_tenant_id_requester_employee_id_fkey" FOREIGN KEY ("tenant_id", "requester_employee_id") REFERENCES "employees"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE NO ACTION;

-- AddForeignKey
ALTER TABLE "leave_requests" ADD CONSTRAINT "leave_requests_tenant_id_attachment_file_id_fkey" FOREIGN KEY ("tenant_id", "attachment_file_id") REFERENCES "files"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE NO ACTION;

-- AddForeignKey
ALTER TABLE "holidays" ADD CONSTRAINT "holidays_tenant_id_branch_id_fkey" FOREIGN KEY ("tenant_id", "branch_id") REFERENCES "branches"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE NO ACTION;

-- AddForeignKey
ALTER TABLE "holidays" ADD CONSTRAINT "holidays_tenant_id_work_location_id_fkey" FOREIGN KEY ("tenant_id", "work_location_id") REFERENCES "work_locations"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE NO ACTION;

-- AddForeignKey
ALTER TABLE "expense_claims" ADD CONSTRAINT "expense_claims_tenant_id_receipt_file_id_fkey" FOREIGN KEY ("tenant_id", "receipt_file_id") REFERENCES "files"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE NO ACTION;

-- AddForeignKey
ALTER TABLE "job_requisitions" ADD CONSTRAINT "job_requisitions_tenant_id_requested_by_employee_id_fkey" FOREIGN KEY ("tenant_id", "requested_by_employee_id") REFERENCES "employees"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE NO ACTION;

-- AddForeignKey
ALTER TABLE "candidates" ADD CONSTRAINT "candidates_tenant_id_resume_file_id_fkey" FOREIGN KEY ("tenant_id", "resume_file_id") REFERENCES "files"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE NO ACTION;

-- AddForeignKey
ALTER TABLE "talent_pool_candidates" ADD CONSTRAINT "talent_pool_candidates_tenant_id_resume_file_id_fkey" FOREIGN KEY ("tenant_id", "resume_file_id") REFERENCES "files"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE NO ACTION;
