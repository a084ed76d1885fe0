-- One window store (src/db/windows.ts): every counting limit is kept in usage_counters, the attempt
-- limits of sign-in, signup and password reset included (they were in auth_throttle). Expand only:
-- their live counters are copied, each with the window it had (an hour for the pause notice,
-- 15 minutes for the others), so no pause is lifted by the upgrade; auth_throttle stays for the
-- previous release's processes during a rolling upgrade and is dropped by a later release.
INSERT INTO usage_counters (key, uses, window_ends)
SELECT t.key, t.failures, t.window_start + CASE WHEN starts_with(t.key, 'lockout-mail:') THEN interval '1 hour' ELSE interval '15 minutes' END
  FROM auth_throttle t
 WHERE t.window_start + CASE WHEN starts_with(t.key, 'lockout-mail:') THEN interval '1 hour' ELSE interval '15 minutes' END > now()
ON CONFLICT (key) DO NOTHING;
