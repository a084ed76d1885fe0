// The FIFO of requests waiting for an admission slot (src/http/admission.ts).

export interface Waiter {
  grant: () => void;
  timer: NodeJS.Timeout;
  gone: boolean;
}

/** A FIFO of waiters as an array with a moving head (shift() of a long array copies it). */
export class WaitQueue {
  private items: (Waiter | undefined)[] = [];
  private head = 0;
  /** waiters still waiting (not granted, timed out or hung up) */
  live = 0;
  push(w: Waiter) {
    this.items.push(w);
    this.live++;
  }
  /** Takes `w` out (timed out, hung up); false when it was no longer waiting. */
  leave(w: Waiter): boolean {
    if (w.gone) return false;
    w.gone = true;
    this.live--;
    clearTimeout(w.timer);
    return true;
  }
  /** The oldest live waiter, taken out of the queue. */
  shift(): Waiter | undefined {
    let found: Waiter | undefined;
    while (!found && this.head < this.items.length) {
      const w = this.items[this.head];
      this.items[this.head++] = undefined;
      if (w && this.leave(w)) found = w;
    }
    if (this.head === this.items.length) {
      this.items = [];
      this.head = 0;
    } else if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return found;
  }
}
