-- The own-record rule decides by the person, not by the current link (security review, issue 28
-- item 4: an admin unlinked their membership from their own employee record, set their own salary
-- and linked it again). Every employee record a user's membership has ever been linked to in the
-- company stays that person's own record: the rows below are written by a trigger on
-- `memberships`, whoever writes the link (a member update, an accepted invitation, a script), and
-- never deleted by the application. The identity query (src/platform/identity/session.ts) reads
-- them with the membership; the memberships trigger of the identity cache
-- (20261125120000_identity_notify) fires on the same statement, so cached identities are dropped.
-- CreateTable
CREATE TABLE "employee_user_links" (
    "tenant_id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "employee_id" UUID NOT NULL,
    "linked_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "employee_user_links_pkey" PRIMARY KEY ("tenant_id","user_id","employee_id")
);

-- CreateIndex
CREATE INDEX "employee_user_links_tenant_id_employee_id_idx" ON "employee_user_links"("tenant_id", "employee_id");

-- AddForeignKey
ALTER TABLE "employee_user_links" ADD CONSTRAINT "employee_user_links_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE OR REPLACE FUNCTION "hrms_employee_user_link"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.employee_id IS NOT NULL THEN
    INSERT INTO "employee_user_links" ("tenant_id", "user_id", "employee_id")
    VALUES (NEW.tenant_id, NEW.user_id, NEW.employee_id)
    ON CONFLICT DO NOTHING;
  END IF;
  RETURN NULL;
END;
$$;

CREATE TRIGGER "memberships_employee_user_link" AFTER INSERT OR UPDATE OF "employee_id", "user_id" ON "memberships"
  FOR EACH ROW EXECUTE FUNCTION "hrms_employee_user_link"();

-- the links of today
INSERT INTO "employee_user_links" ("tenant_id", "user_id", "employee_id")
SELECT "tenant_id", "user_id", "employee_id" FROM "memberships" WHERE "employee_id" IS NOT NULL
ON CONFLICT DO NOTHING;
