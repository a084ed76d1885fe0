// A run's batches read one ahead, so the server's CPU and PostgreSQL's overlap on the run's one connection;
// memory is two batches' facts at most (docs/performance.md, "Scale of the work").
import type { BatchInputs, RunInputs } from "./run-inputs.ts";
import type { PaidEmployeeRow } from "./queries/calculation.ts";

export interface ReadBatch {
  employees: PaidEmployeeRow[];
  facts: BatchInputs;
}

/** The run's batches of `size` employees with their facts, each read while the previous one is worked on. */
export async function* readAhead(inputs: RunInputs, size: number): AsyncGenerator<ReadBatch> {
  const pages = inputs.pages(size);
  const next = async (): Promise<ReadBatch | null> => {
    const page = await pages.next();
    return page.done ? null : { employees: page.value, facts: await inputs.forBatch(page.value) };
  };
  let pending = next();
  try {
    for (;;) {
      const current = await pending;
      if (!current) return;
      pending = next();
      // awaited on the next turn; a caller that stops early (processing at a changed batch) never awaits it
      pending.catch(() => {});
      yield current;
    }
  } finally {
    // a caller that stops early goes on with the same transaction: the read in flight ends first
    await pending.catch(() => null);
  }
}
