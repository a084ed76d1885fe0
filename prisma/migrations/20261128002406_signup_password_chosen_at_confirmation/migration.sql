-- Issue 28 (pre-account hijack): the password is chosen at the confirmation; a signup no longer
-- keeps one (a stranger could sign up with anyone's address and a password of their choosing).
ALTER TABLE "signup_requests" DROP COLUMN "password_hash";
