// Delivery is kicked in one place (src/platform/mail/outbox.ts deliverQueuedMail, around every operation and
// job): once the work has finished, and only when it queued mail.
import { afterEach, describe, expect, it, vi } from "vitest";
import { jobs } from "../../src/platform/jobs/queue.ts";
import { deliverQueuedMail, queueEmail } from "../../src/platform/mail/outbox.ts";

const outbox = (log: string[]) => ({
  emailOutbox: {
    create: async () => {
      log.push("queued");
      return { id: "m1" };
    },
  },
});

describe("deliverQueuedMail", () => {
  afterEach(() => vi.restoreAllMocks());

  it("kicks delivery after work that queued mail, once, after the work finished", async () => {
    const log: string[] = [];
    vi.spyOn(jobs, "kick").mockImplementation((name) => void log.push(`kick ${name}`));
    await deliverQueuedMail(async () => {
      await queueEmail(outbox(log), { to: "a@example.com", subject: "s", text: "t" });
      await queueEmail(outbox(log), { to: "b@example.com", subject: "s", text: "t" });
      log.push("done");
    });
    expect(log).toEqual(["queued", "queued", "done", "kick mail.deliver"]);
  });

  it("does not kick after work that queued nothing, and kicks after work that failed once mail was queued", async () => {
    const kick = vi.spyOn(jobs, "kick").mockImplementation(() => {});
    expect(await deliverQueuedMail(async () => 42)).toBe(42);
    expect(kick).not.toHaveBeenCalled();
    await expect(
      deliverQueuedMail(async () => {
        await queueEmail(outbox([]), { to: "a@example.com", subject: "s", text: "t" });
        throw new Error("after the commit");
      }),
    ).rejects.toThrow("after the commit");
    expect(kick).toHaveBeenCalledTimes(1);
  });

  it("keeps concurrent units of work apart", async () => {
    const kick = vi.spyOn(jobs, "kick").mockImplementation(() => {});
    await Promise.all([
      deliverQueuedMail(async () => {}),
      deliverQueuedMail(async () => void (await queueEmail(outbox([]), { to: "a@example.com", subject: "s", text: "t" }))),
    ]);
    expect(kick).toHaveBeenCalledTimes(1);
  });
});
