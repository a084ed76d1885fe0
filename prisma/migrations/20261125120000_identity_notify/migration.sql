-- Identity cache invalidation across server processes (src/auth/identity-cache.ts).
-- Each server process keeps the identities it resolved (session row + membership + tenant modules
-- + user's e-mail and name) in memory and LISTENs on the channel `hrms_identity`; any change to
-- what such an entry holds notifies every process, which then drops its entries. Triggers (not
-- application code) send the notification, so every writer - the API, a migration, psql, another
-- version of the server - invalidates the caches.
CREATE OR REPLACE FUNCTION "hrms_identity_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- one notification per statement and table; identical ones within a transaction are merged
  PERFORM pg_notify('hrms_identity', TG_TABLE_NAME);
  RETURN NULL;
END;
$$;

-- a session ended or rewritten (sign-out, tenant switch, password change ending other sessions,
-- pruning of expired rows); a new session (INSERT) cannot be cached yet
CREATE TRIGGER "session_identity_changed" AFTER UPDATE OR DELETE ON "session"
  FOR EACH STATEMENT EXECUTE FUNCTION "hrms_identity_changed"();
CREATE TRIGGER "session_identity_truncated" AFTER TRUNCATE ON "session"
  FOR EACH STATEMENT EXECUTE FUNCTION "hrms_identity_changed"();

-- a member added (a cached "no membership" must end), removed, or given another role or employee
CREATE TRIGGER "memberships_identity_changed" AFTER INSERT OR UPDATE OR DELETE ON "memberships"
  FOR EACH STATEMENT EXECUTE FUNCTION "hrms_identity_changed"();
CREATE TRIGGER "memberships_identity_truncated" AFTER TRUNCATE ON "memberships"
  FOR EACH STATEMENT EXECUTE FUNCTION "hrms_identity_changed"();

-- a module switched on or off, a tenant deleted
CREATE TRIGGER "tenants_identity_changed" AFTER UPDATE OF "modules" OR DELETE ON "tenants"
  FOR EACH STATEMENT EXECUTE FUNCTION "hrms_identity_changed"();
CREATE TRIGGER "tenants_identity_truncated" AFTER TRUNCATE ON "tenants"
  FOR EACH STATEMENT EXECUTE FUNCTION "hrms_identity_changed"();

-- a user's e-mail or name (shown in audit entries and notifications), a user deleted
CREATE TRIGGER "users_identity_changed" AFTER UPDATE OF "email", "name" OR DELETE ON "users"
  FOR EACH STATEMENT EXECUTE FUNCTION "hrms_identity_changed"();
CREATE TRIGGER "users_identity_truncated" AFTER TRUNCATE ON "users"
  FOR EACH STATEMENT EXECUTE FUNCTION "hrms_identity_changed"();
