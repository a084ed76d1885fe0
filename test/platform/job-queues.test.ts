// ensureQueue: processes starting together create the same job queues at once; a failed create in
// one of them (a deadlock, a lock timeout) is retried unless the queue exists by then, and a queue
// that cannot be made stops the start instead of leaving the process without a worker.
import { describe, expect, it } from "vitest";
import { ensureQueue } from "../../src/platform/jobs/queue.ts";

/** A pg-boss stand-in: `failures` creates fail; `existsAfterFailure` = another process made it meanwhile. */
function fakeBoss(failures: number, existsAfterFailure = false) {
  const calls = { create: 0, get: 0 };
  let made = false;
  return {
    calls,
    boss: {
      async createQueue() {
        calls.create++;
        if (calls.create <= failures) {
          if (existsAfterFailure) made = true;
          throw new Error("deadlock detected");
        }
        made = true;
      },
      async getQueue() {
        calls.get++;
        return made ? ({ name: "x" } as never) : null;
      },
    } as never,
  };
}

describe("ensureQueue", () => {
  it("retries a create that failed while the queue is still missing", async () => {
    const f = fakeBoss(2);
    await ensureQueue(f.boss, "mail.deliver");
    expect(f.calls.create).toBe(3);
  });

  it("takes a queue another process made meanwhile as made", async () => {
    const f = fakeBoss(1, true);
    await ensureQueue(f.boss, "mail.deliver");
    expect(f.calls.create).toBe(1);
    expect(f.calls.get).toBe(1);
  });

  it("throws the last failure after its attempts: the start fails instead of serving without the queue", async () => {
    const f = fakeBoss(10);
    await expect(ensureQueue(f.boss, "mail.deliver", 3)).rejects.toThrow("deadlock detected");
    expect(f.calls.create).toBe(3);
  });
});
