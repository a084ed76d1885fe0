// One connection for a whole step (onOneConnection, src/db/primitives.ts): every query of the process's
// pools in its async context runs on it, so a step never waits for a second connection while holding one;
// a nested BEGIN becomes a savepoint (docs/architecture.md, "Database primitives").
import { AsyncLocalStorage } from "node:async_hooks";
import pg from "pg";

interface Pin {
  client: pg.PoolClient;
  /** statements one after the other on the one connection (pg 9 refuses to queue them itself) */
  queue: Promise<unknown>;
  savepoints: number;
}
const pins = new AsyncLocalStorage<Pin>();

/** Runs `fn` with every query of the pool in its async context on `client` (already in a transaction). */
export function runPinned<T>(client: pg.PoolClient, fn: () => Promise<T>): Promise<T> {
  return pins.run({ client, queue: Promise.resolve(), savepoints: 0 }, fn);
}

/** Whether the caller runs pinned (a step on one connection). */
export function pinned(): boolean {
  return pins.getStore() !== undefined;
}

function enqueue<T>(pin: Pin, run: () => Promise<T>): Promise<T> {
  const out = pin.queue.then(run);
  pin.queue = out.then(
    () => undefined,
    () => undefined,
  );
  return out;
}

type QueryArgs = Parameters<pg.PoolClient["query"]>;
const textOf = (args: QueryArgs): string | undefined => {
  const first = args[0] as unknown;
  if (typeof first === "string") return first;
  return (first as { text?: unknown } | null)?.text as string | undefined;
};

/** A statement on the pinned connection once the ones before it finished; pg's own return value is given back as it is. */
function pinnedQuery(pin: Pin, args: QueryArgs): any {
  const last = args.length - 1;
  const sub = args[0] as unknown as {
    submit?: unknown;
    callback?: (...a: unknown[]) => unknown;
    once?: (event: string, listener: () => void) => unknown;
  };
  if (typeof sub?.submit === "function" || typeof args[last] === "function") {
    let returned: unknown;
    void enqueue(
      pin,
      () =>
        new Promise<void>((done) => {
          const finishing =
            (cb: (...a: unknown[]) => unknown) =>
            (...a: unknown[]) => {
              done();
              return cb(...a);
            };
          if (typeof args[last] === "function") (args as unknown[])[last] = finishing(args[last] as (...a: unknown[]) => unknown);
          else if (sub.callback) sub.callback = finishing(sub.callback);
          else {
            sub.once?.("end", done);
            sub.once?.("error", done);
          }
          returned = (pin.client.query as any)(...args);
        }),
    );
    return typeof sub?.submit === "function" ? sub : returned;
  }
  return enqueue(pin, () => (pin.client.query as any)(...args));
}

/**
 * A "connection" of the pinned step handed to code that asked the pool for one: its transaction
 * statements become a savepoint of the step's transaction; release gives nothing back.
 */
function nestedClient(pin: Pin): pg.PoolClient {
  let savepoint: string | undefined;
  const translate = (text: string | undefined): string | undefined => {
    const statement = text?.trim().replace(/;$/, "").toUpperCase();
    if (statement === "BEGIN" || statement === "START TRANSACTION") {
      savepoint = `pinned_${++pin.savepoints}`;
      return `SAVEPOINT ${savepoint}`;
    }
    if ((statement === "COMMIT" || statement === "END") && savepoint) return `RELEASE SAVEPOINT ${savepoint}`;
    if (statement === "ROLLBACK" && savepoint) return `ROLLBACK TO SAVEPOINT ${savepoint}; RELEASE SAVEPOINT ${savepoint}`;
    return undefined;
  };
  const query = (...args: QueryArgs) => {
    const replaced = translate(textOf(args));
    if (replaced === undefined) return pinnedQuery(pin, args);
    if (!replaced.startsWith("SAVEPOINT")) savepoint = undefined;
    return enqueue(pin, () => pin.client.query(replaced));
  };
  return new Proxy(pin.client, {
    get(target, prop) {
      if (prop === "query") return query;
      if (prop === "release") return () => {};
      const value = Reflect.get(target, prop);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** The process's pool: pinned steps' queries on their own connection, every other as pg.Pool does. */
export class PinnablePool extends pg.Pool {
  // the overloads of pg.Pool's query and connect are kept by the casts; the pinned path returns promises
  query: pg.Pool["query"] = ((...args: QueryArgs) => {
    const pin = pins.getStore();
    return pin ? pinnedQuery(pin, args) : (super.query as any)(...args);
  }) as pg.Pool["query"];

  connect: pg.Pool["connect"] = ((callback?: (err: Error | undefined, client?: pg.PoolClient, done?: () => void) => void) => {
    const pin = pins.getStore();
    if (!pin) return (super.connect as any)(callback);
    const client = nestedClient(pin);
    if (callback) return void callback(undefined, client, () => {});
    return Promise.resolve(client);
  }) as pg.Pool["connect"];
}
