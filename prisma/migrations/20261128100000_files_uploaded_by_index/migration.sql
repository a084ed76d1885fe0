-- A member's share of the company's storage quota (MEMBER_STORAGE_SHARE_PERCENT, security review
-- issue 28 item 14): the bytes of the files one member uploaded, summed at every upload.
-- CreateIndex
CREATE INDEX "files_tenant_id_uploaded_by_idx" ON "files"("tenant_id", "uploaded_by");
