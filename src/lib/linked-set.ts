// A set of short-lived items (the requests in progress) kept as a doubly linked list through the items
// themselves, where a Set would rehash its table every few additions as items come and go. Once that
// table is in the old space (a full collection promotes it, and V8 then allocates each rehashed table
// there too), the table a rehash replaces still points at the items it held until the next full
// collection, and young-generation collections treat those old-space references as roots: every item in
// the set at a rehash - with ~10 requests in flight, every request, its response and their headers - was
// promoted, and under load a full collection ran every second (docs/performance.md, "The request path").
// Here removing an item rewrites its neighbours' links and clears its own: nothing keeps a removed item.

/** The links an item of a LinkedSet carries (owned by the set: never set them elsewhere). */
export interface Links<T> {
  linkedPrev?: T;
  linkedNext?: T;
  /** the set it is in */
  linkedIn?: object;
}

export class LinkedSet<T extends Links<T>> {
  private head: T | undefined;
  private tail: T | undefined;
  private count = 0;

  get size(): number {
    return this.count;
  }

  add(item: T): void {
    if (item.linkedIn === this) return;
    if (item.linkedIn) throw new Error("LinkedSet: the item is in another set");
    item.linkedIn = this;
    item.linkedPrev = this.tail;
    item.linkedNext = undefined;
    if (this.tail) this.tail.linkedNext = item;
    else this.head = item;
    this.tail = item;
    this.count++;
  }

  /** Takes `item` out; false when it was not in this set. */
  delete(item: T): boolean {
    if (item.linkedIn !== this) return false;
    const { linkedPrev: prev, linkedNext: next } = item;
    if (prev) prev.linkedNext = next;
    else this.head = next;
    if (next) next.linkedPrev = prev;
    else this.tail = prev;
    item.linkedPrev = undefined;
    item.linkedNext = undefined;
    item.linkedIn = undefined;
    this.count--;
    return true;
  }

  has(item: T): boolean {
    return item.linkedIn === this;
  }

  /**
   * In the order added; an item added while iterating is visited. Should the current item and the one
   * after it both be taken out during the current one's turn, the iteration ends there.
   */
  *[Symbol.iterator](): IterableIterator<T> {
    let item = this.head;
    while (item) {
      const current: T = item;
      const following = current.linkedNext;
      yield current;
      if (current.linkedIn === this) item = current.linkedNext;
      else item = following?.linkedIn === this ? following : undefined;
    }
  }
}
