// Background work on pg-boss, shared by every server process: mail delivery and the areas' scheduled jobs
// (docs/architecture.md, "Background jobs"). A kick before this process's worker is up is sent once it is.
import { PgBoss } from "pg-boss";
import { config, type Config, withConfig } from "../../config.ts";
import { logger } from "../../log.ts";

/**
 * pg-boss's schema: 12 cannot migrate 10's, so it installs its own beside `pgboss`, which the previous
 * release keeps during a rolling upgrade. Its jobs are only wake-ups; the work is in the areas' tables.
 */
export const JOB_SCHEMA = "pgboss_v12";

type JobHandler = () => Promise<unknown>;
interface JobDef {
  name: string;
  cron?: string;
  handler: JobHandler;
}

/** A job as an area declares it in its `schedule.ts`; `make generate` discovers them (generated/jobs.ts). */
export interface JobDefinition {
  /** the queue's name, `<area>.<what>` */
  name: string;
  /** with a cron expression (UTC), it also runs on that schedule */
  cron?: string;
  run: JobHandler;
}

const definitions = new Map<string, JobDef>();

/** Registers a named job; with `cron`, it also runs on that schedule (UTC). */
export function registerJob(name: string, handler: JobHandler, cron?: string): void {
  definitions.set(name, { name, handler, cron });
}

/** Scheduled jobs a release removed: their schedules are deleted at start, so pg-boss stops queuing runs no worker takes. */
const retired = new Set<string>();
export function retireSchedule(name: string): void {
  retired.add(name);
}

/** The names of the registered jobs: the queues (the metrics label their figures with them, and only them). */
export function registeredJobNames(): string[] {
  return [...definitions.keys()];
}

type QueueMaker = Pick<PgBoss, "createQueue" | "getQueue">;

/**
 * Creates a job's queue unless it exists. Processes starting together can make pg-boss's create_queue
 * fail (deadlock, lock timeout), leaving one without the queue and unready: retried a few times after a
 * random pause, then thrown (the start fails loudly rather than serve without a worker).
 */
export async function ensureQueue(boss: QueueMaker, name: string, attempts = 5): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await boss.createQueue(name, { retryLimit: 10, retryDelay: 5, retryBackoff: true });
      return;
    } catch (err) {
      if (await boss.getQueue(name).catch(() => null)) return;
      if (attempt >= attempts) throw err;
      logger.warn({ err: (err as Error).message, queue: name, attempt }, "could not create job queue; retrying");
      await new Promise((r) => setTimeout(r, 50 * attempt + Math.floor(Math.random() * 100)));
    }
  }
}

class Jobs {
  private boss: PgBoss | undefined;
  /** this process's worker of each queue, woken at once by `kick` instead of at its next poll */
  private workers = new Map<string, string>();
  /** Jobs kicked before this process's worker was up, kicked once it is rather than at the minute's sweep. */
  private pending = new Set<string>();

  /** Starts this process's worker; it runs every job with `cfg` as the configuration in force. */
  async start(connectionString: string, cfg: Config): Promise<void> {
    if (this.boss) return;
    const boss = new PgBoss({ connectionString, schema: JOB_SCHEMA, max: 4 });
    boss.on("error", (err: Error) => logger.warn({ err: err.message }, "job queue error"));
    await boss.start();
    for (const def of definitions.values()) {
      await ensureQueue(boss, def.name);
      const worker = await boss.work(def.name, { batchSize: 1, pollingIntervalSeconds: 2 }, async () => {
        await withConfig(cfg, def.handler);
      });
      this.workers.set(def.name, worker);
      if (def.cron) await boss.schedule(def.name, def.cron, {}, { tz: "UTC" });
    }
    for (const name of retired) if (!definitions.has(name)) await boss.unschedule(name);
    this.boss = boss;
    const pending = [...this.pending];
    this.pending.clear();
    for (const name of pending) this.kick(name);
  }

  /** Asks a worker to run the job soon (deduplicated); this process's worker is woken at once, not at its next poll. */
  kick(name: string): void {
    const boss = this.boss;
    if (!boss) {
      if (definitions.has(name)) this.pending.add(name);
      return;
    }
    boss
      .send(name, {}, { singletonKey: name })
      .then(() => {
        const worker = this.workers.get(name);
        if (worker && this.boss === boss) boss.notifyWorker(worker);
      })
      .catch((err: Error) => logger.warn({ err: err.message, job: name }, "could not enqueue job"));
  }

  /** Runs a registered job in this process now (tests, CLI), with `cfg` (default: the one in force). */
  async runNow(name: string, cfg: Config = config()): Promise<void> {
    const def = definitions.get(name);
    if (!def) throw new Error(`unknown job ${name}`);
    await withConfig(cfg, def.handler);
  }

  async stop(): Promise<void> {
    const b = this.boss;
    this.boss = undefined;
    this.workers.clear();
    this.pending.clear();
    await b?.stop({ graceful: true, timeout: 5000 }).catch(() => {});
  }

  get running(): boolean {
    return Boolean(this.boss);
  }
}

export const jobs = new Jobs();
