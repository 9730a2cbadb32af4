import type { AdaptiveConcurrency } from "./adaptiveConcurrency.js";

export interface PipelinedFetchOptions<T, R> {
  /** The next items in order, empty when there are none left. */
  nextChunk: () => Promise<readonly T[]>;
  /**
   * Fetches one item. `refused` is called by it when the server refused or failed an attempt (a
   * retry follows): the pace backs off. A rejection stops the run: no new item is started, those in
   * flight finish, what they fetched is committed, and the error is thrown.
   */
  fetch: (item: T, refused: () => void) => Promise<R>;
  /** Stores results; a rejection stops the run and is thrown once the requests in flight end. */
  commit: (results: R[]) => Promise<void>;
  controller: AdaptiveConcurrency;
  signal: AbortSignal;
  /** Results per commit, at least: while one commit runs, the next batch grows. */
  commitSize: number;
}

/**
 * Fetches every item with as many requests in flight as the controller allows, without barriers:
 * the next chunk of items is read while the current one is fetched, and results are committed in
 * the background while requests keep going out. Reading items and committing never run at once
 * (they share the database connection). Stops taking new items when `signal` aborts.
 */
export async function pipelinedFetch<T, R>(options: PipelinedFetchOptions<T, R>): Promise<void> {
  const { controller, signal } = options;
  const exclusive = new SerialQueue();
  let failure: { error: unknown } | undefined;
  let inFlight = 0;
  let slotFreed: (() => void) | undefined;
  let pending: R[] = [];
  let committing: Promise<void> | undefined;
  let commitFailed = false;

  const startCommit = () => {
    const batch = pending;
    pending = [];
    committing = exclusive
      .run(() => options.commit(batch))
      .catch((error: unknown) => {
        commitFailed = true;
        failure ??= { error };
      })
      .finally(() => {
        committing = undefined;
        if (failure === undefined && pending.length >= options.commitSize) startCommit();
      });
  };

  const fetchOne = async (item: T) => {
    let refused = false;
    const started = performance.now();
    try {
      const result = await options.fetch(item, () => {
        refused = true;
        controller.onRefused();
      });
      if (!refused) controller.onSuccess(performance.now() - started);
      pending.push(result);
      if (committing === undefined && pending.length >= options.commitSize) startCommit();
    } catch (error) {
      failure ??= { error };
    } finally {
      inFlight -= 1;
      slotFreed?.();
    }
  };

  const items = new ChunkFeed(() => exclusive.run(options.nextChunk));
  try {
    while (failure === undefined && !signal.aborted) {
      while (inFlight >= controller.limit) {
        await new Promise<void>((resolve) => {
          slotFreed = resolve;
        });
        slotFreed = undefined;
      }
      if (failure !== undefined || signal.aborted) break;
      const next = await items.next();
      if (next.done || failure !== undefined || signal.aborted) break;
      inFlight += 1;
      void fetchOne(next.value);
    }
  } catch (error) {
    failure ??= { error };
  }
  while (inFlight > 0) {
    await new Promise<void>((resolve) => {
      slotFreed = resolve;
    });
    slotFreed = undefined;
  }
  while (committing !== undefined) await committing;
  // What was fetched before a failure of the API or an interruption is kept; a failed commit is not retried.
  if (pending.length > 0 && !commitFailed) startCommit();
  while (committing !== undefined) await committing;
  if (failure !== undefined) throw failure.error;
}

/** Reads chunks one ahead: the next is being read while the current one is handed out. */
class ChunkFeed<T> {
  private current: readonly T[] = [];
  private position = 0;
  private ahead: Promise<readonly T[]> | undefined;
  private finished = false;

  constructor(private readonly read: () => Promise<readonly T[]>) {}

  async next(): Promise<{ done: true } | { done: false; value: T }> {
    while (this.position >= this.current.length) {
      if (this.finished) return { done: true };
      const chunk = await (this.ahead ?? this.read());
      this.ahead = undefined;
      if (chunk.length === 0) {
        this.finished = true;
        return { done: true };
      }
      this.current = chunk;
      this.position = 0;
      this.ahead = this.read();
      // A read ahead that fails is thrown by the next() that awaits it, not left unhandled.
      this.ahead.catch(() => undefined);
    }
    const value = this.current[this.position] as T;
    this.position += 1;
    return { done: false, value };
  }
}

/** Runs tasks one at a time, in the order given. */
class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve();

  run<V>(task: () => Promise<V>): Promise<V> {
    const result = this.tail.then(task, task);
    this.tail = result.catch(() => undefined);
    return result;
  }
}
