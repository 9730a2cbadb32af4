/** A priced call waiting for its billing to land. */
export interface PendingCharge {
  index: number;
  account: string;
  createdUs: number;
  billedUs: number;
  micros: number;
}

const before = (a: PendingCharge, b: PendingCharge) =>
  a.billedUs < b.billedUs || (a.billedUs === b.billedUs && a.index < b.index);

/**
 * The calls whose billing has not landed, as a binary min-heap on (billedUs, index): the credit
 * ledger charges them in that order, holding only the calls in flight rather than a whole history.
 */
export class BillingQueue {
  readonly #heap: PendingCharge[] = [];

  push(charge: PendingCharge): void {
    const heap = this.#heap;
    heap.push(charge);
    let k = heap.length - 1;
    while (k > 0) {
      const parent = (k - 1) >> 1;
      const up = heap[parent] as PendingCharge;
      if (!before(charge, up)) break;
      heap[k] = up;
      k = parent;
    }
    heap[k] = charge;
  }

  /** The earliest charge if its billing has landed by `us` (removed), else undefined. */
  popDue(us: number): PendingCharge | undefined {
    const heap = this.#heap;
    const top = heap[0];
    if (top === undefined || top.billedUs > us) return undefined;
    const last = heap.pop() as PendingCharge;
    if (heap.length === 0) return top;
    let k = 0;
    for (;;) {
      const left = 2 * k + 1;
      if (left >= heap.length) break;
      const right = left + 1;
      const child =
        right < heap.length && before(heap[right] as PendingCharge, heap[left] as PendingCharge)
          ? right
          : left;
      if (!before(heap[child] as PendingCharge, last)) break;
      heap[k] = heap[child] as PendingCharge;
      k = child;
    }
    heap[k] = last;
    return top;
  }
}
