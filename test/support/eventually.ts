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
