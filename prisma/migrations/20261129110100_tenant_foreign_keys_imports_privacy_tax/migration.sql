-- Composite tenant foreign keys for the references the income-tax, privacy and import-record tables added without one
-- (an import's records, a declaration's proof, a kept record's request, a candidate's notice acknowledgement).
ALTER TABLE "import_records" ADD CONSTRAINT "import_records_tenant_id_import_id_fkey" FOREIGN KEY ("tenant_id", "import_id") REFERENCES "imports"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE NO ACTION;
ALTER TABLE "tax_declarations" ADD CONSTRAINT "tax_declarations_tenant_id_proof_file_id_fkey" FOREIGN KEY ("tenant_id", "proof_file_id") REFERENCES "files"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE NO ACTION;
ALTER TABLE "retained_records" ADD CONSTRAINT "retained_records_tenant_id_request_id_fkey" FOREIGN KEY ("tenant_id", "request_id") REFERENCES "privacy_requests"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE NO ACTION;
ALTER TABLE "privacy_notice_acknowledgements" ADD CONSTRAINT "privacy_notice_acknowledgements_tenant_id_candidate_id_fkey" FOREIGN KEY ("tenant_id", "candidate_id") REFERENCES "candidates"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE NO ACTION;
