// Long loops of synchronous work that give the event loop a turn: after every `budgetMs` of work
// they wait for setImmediate, so other requests (of every tenant) are served in between and no
// request keeps the loop busy for long (scripts/measure/event-loop.ts checks 100 ms per request).

/** Work between two turns (ms): small, as a descheduled slice on a busy machine looks longer to all who wait. */
const DEFAULT_BUDGET_MS = 8;

/** A turn of the event loop for everything that is waiting (I/O, timers) before going on. */
export const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Call `tick()` after each unit of work: it resolves at once until `budgetMs` went by, then after a turn of the loop. */
export function yielder(budgetMs = DEFAULT_BUDGET_MS): () => Promise<void> | undefined {
  let since = performance.now();
  return () => {
    if (performance.now() - since < budgetMs) return undefined;
    return nextTurn().then(() => {
      since = performance.now();
    });
  };
}

/** `items.map(fn)`, giving the loop a turn every `budgetMs` of work. */
export async function mapYielding<T, R>(
  items: readonly T[],
  fn: (item: T, index: number) => R,
  budgetMs = DEFAULT_BUDGET_MS,
): Promise<R[]> {
  const out: R[] = new Array(items.length);
  const tick = yielder(budgetMs);
  for (let i = 0; i < items.length; i++) {
    out[i] = fn(items[i], i);
    const wait = tick();
    if (wait) await wait;
  }
  return out;
}

/** `JSON.stringify(items.map(fn))` of a long array, built item by item with turns of the loop in between. */
export async function stringifyYielding<T>(
  items: readonly T[],
  fn: (item: T) => unknown = (x) => x,
  budgetMs = DEFAULT_BUDGET_MS,
): Promise<string> {
  const parts = await mapYielding(items, (r) => JSON.stringify(fn(r)), budgetMs);
  return `[${parts.join(",")}]`;
}
