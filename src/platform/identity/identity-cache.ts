// The identity cache: what a session id resolves to, in memory, dropped in every process on the database's
// NOTIFY `hrms_identity` and unused while LISTEN is down (docs/scaling.md, "The identity cache").
// IDENTITY_CACHE_TTL_MS=0 turns it off (the test suite's default; its own test turns it on).
import pg from "pg";
import { config } from "../../config.ts";
import { logger } from "../../log.ts";

export const IDENTITY_CHANNEL = "hrms_identity";

export interface CachedIdentity {
  /** the session row's JSON text (parsed per request: express-session mutates what it gets) */
  sess: string;
  /** the session row's expiry (ms since the epoch) */
  expire: number;
  row: IdentityRow | null;
}

/** The membership a session names, as the guard needs it. */
export interface IdentityRow {
  role: string;
  employee_id: string | null;
  modules: string[];
  email: string;
  name: string;
  /** every employee record the member's account is or was linked to (the own-record rule) */
  own_employee_ids: string[];
}

interface Entry extends CachedIdentity {
  until: number;
}

export class IdentityCache {
  private entries = new Map<string, Entry>();
  private generation = 0;
  /** The payload of the last notification heard: a test that sends one and waits for it knows every earlier one has arrived. */
  lastHeard: string | undefined;
  private client: pg.Client | undefined;
  private listening = false;
  private stopped = false;
  private started = false;
  private retry: NodeJS.Timeout | undefined;
  private connecting: Promise<void> | undefined;

  constructor(
    readonly url: string,
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  /** Whether entries are served (the LISTEN connection is up). */
  get active(): boolean {
    return this.listening && !this.stopped;
  }

  /** The token to pass to `set`: a result read before a later invalidation is not stored. */
  token(): number {
    if (!this.started) {
      this.started = true; // the first use connects; a lost connection is retried every second
      this.listen();
    }
    return this.generation;
  }

  get(sid: string): CachedIdentity | undefined {
    if (!this.active) return undefined;
    const e = this.entries.get(sid);
    if (!e) return undefined;
    const now = Date.now(); // machine time: the cache's own lifetime and the session store's expiry
    if (now >= e.until || now >= e.expire) {
      this.entries.delete(sid);
      return undefined;
    }
    return e;
  }

  set(sid: string, value: CachedIdentity, token: number): void {
    if (!this.active || token !== this.generation) return;
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!); // the oldest
    this.entries.set(sid, { ...value, until: Date.now() + this.ttlMs }); // machine time: a cache entry's age
  }

  /** Drops every entry (a notification, a state-changing request of this process, a lost connection). */
  invalidate(): void {
    this.generation++;
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }

  private listen(): void {
    if (this.connecting || this.stopped) return;
    const client = new pg.Client({ connectionString: this.url, application_name: "hrms identity cache" });
    this.client = client;
    const lost = (err?: Error) => {
      if (this.client !== client) return;
      if (this.listening)
        logger.warn({ err: err?.message }, "identity cache: LISTEN connection lost; reading identities from the database until it is back");
      this.listening = false;
      this.client = undefined;
      this.invalidate();
      client.end().catch(() => {});
      if (!this.stopped) this.retry = setTimeout(() => this.listen(), 1000).unref();
    };
    client.on("notification", (n) => {
      this.lastHeard = n.payload;
      this.invalidate();
    });
    client.on("error", lost);
    client.on("end", () => lost());
    this.connecting = client
      .connect()
      .then(() => client.query(`LISTEN ${IDENTITY_CHANNEL}`))
      .then(() => {
        if (this.client !== client || this.stopped) return;
        this.invalidate(); // nothing read before LISTEN may be stored
        this.listening = true;
      })
      .catch((err: Error) => lost(err))
      .finally(() => (this.connecting = undefined));
  }

  /** Waits until the LISTEN connection is up (tests, start-up). */
  async ready(): Promise<void> {
    this.token();
    await this.connecting;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.listening = false;
    clearTimeout(this.retry);
    this.invalidate();
    const c = this.client;
    this.client = undefined;
    await this.connecting?.catch(() => {});
    await c?.end().catch(() => {});
  }
}

let cache: IdentityCache | undefined;

/** The process's cache for the database at `url` (none when IDENTITY_CACHE_TTL_MS is 0). */
export function identityCache(url: string | undefined): IdentityCache | undefined {
  const ttlMs = config().identityCacheTtlMs;
  if (!url || ttlMs === 0) return undefined;
  if (cache && cache.url !== url) {
    void cache.stop();
    cache = undefined;
  }
  cache ??= new IdentityCache(url, ttlMs);
  return cache;
}

/** Drops this process's entries (after a state-changing request: its write must not wait for the notification). */
export function invalidateIdentities(): void {
  cache?.invalidate();
}

export async function stopIdentityCache(): Promise<void> {
  const c = cache;
  cache = undefined;
  await c?.stop();
}
