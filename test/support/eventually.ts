// Waiting for what happens asynchronously (a NOTIFY from another connection, a server process
// becoming ready): polls `fn` until it holds or `timeoutMs` pass. Only catches hangs: generous, so
// a busy machine is slower, never red.

/** Until `fn` holds (true) or `timeoutMs` pass (false). */
export async function eventually(fn: () => Promise<boolean>, { timeoutMs = 10_000, everyMs = 10 } = {}): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (await fn()) return true;
    await new Promise((r) => setTimeout(r, everyMs));
  }
  return false;
}

/**
 * Until `fn` holds, else throws naming `what` once `timeoutMs` pass: a hang guard for a step a test
 * needs before it goes on (slots free, a process ready), not a timing assertion.
 */
export async function waitFor(
  what: string,
  fn: () => Promise<boolean> | boolean,
  { timeoutMs = 120_000, everyMs = 20 } = {},
): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await fn())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
