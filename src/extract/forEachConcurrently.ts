/** Runs `work` over the items with at most `concurrency` in flight; stops taking new ones when aborted. */
export async function forEachConcurrently<T>(
  items: readonly T[],
  concurrency: number,
  signal: AbortSignal,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length && !signal.aborted) {
      const item = items[next] as T;
      next += 1;
      await work(item);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, worker));
}
