// Where a server process is in its life, as readiness reports it: starting, serving, or draining (503 for
// SHUTDOWN_DRAIN_MS while still serving, so the load balancer stops routing first; docs/operations.md,
// "Health probes"). Kept in `app.locals.lifecycle`; src/main.ts moves it on.

export interface Lifecycle {
  /** Start-up is not finished (the job worker of a process that runs one has not started yet). */
  starting: boolean;
  /** Shutting down: readiness says no, responses close their connections. */
  draining: boolean;
  /** This process should run the job worker (RUN_WORKER)... */
  workerExpected: boolean;
  /** ...and whether it runs now. */
  workerRunning: () => boolean;
  /** Every migration of the build was seen applied (checked until it is; migrations are never unapplied). */
  migrationsApplied: boolean;
}

/** A lifecycle; by default one that serves (the tests' apps), with no job worker expected. */
export function createLifecycle(init: Partial<Lifecycle> = {}): Lifecycle {
  return { starting: false, draining: false, workerExpected: false, workerRunning: () => false, migrationsApplied: false, ...init };
}

/** Whether the process is ready by its own state (the database and migrations are asked by readiness itself). */
export function readyByState(l: Lifecycle): boolean {
  return !l.starting && !l.draining && (!l.workerExpected || l.workerRunning());
}
