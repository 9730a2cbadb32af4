import type { AdaptiveConcurrency } from "./adaptiveConcurrency.js";

export interface FetchConcurrentlyOptions<T, R> {
  /** The next items in order, empty when there are none left. */
  nextChunk: () => Promise<readonly T[]>;
  /**
   * Fetches one item. `refused` is called by it when the server refused or failed an attempt (a
   * retry follows): the pace backs off. A rejection stops the fetch: no new item is started, those
   * in flight finish, their results are handed out, and the error is thrown after them.
   */
  fetch: (item: T, refused: () => void) => Promise<R>;
  controller: AdaptiveConcurrency;
  /** Stops taking new items: those in flight finish and their results are handed out last. */
  signal: AbortSignal;
}

/**
 * Fetches every item with as many requests in flight as the controller allows, and yields the
 * results in groups: each group is what was answered since the previous one. Requests go out
 * without barriers and whatever the consumer does: the next chunk of items is read while the
 * current one is fetched, and requests keep flowing while the consumer works on a group (a commit,
 * say). After a failure or an abort the results of the requests in flight come as one last group.
 * A consumer that leaves early starts no new request and waits for those in flight (their results
 * are dropped).
 */
export async function* fetchConcurrently<T, R>(options: FetchConcurrentlyOptions<T, R>): AsyncGenerator<R[]> {
  const run = new FetchRun(options);
  const driving = run.drive();
  try {
    for (let group = await run.nextGroup(); group !== undefined; group = await run.nextGroup()) {
      yield group;
    }
    run.throwFailure();
  } finally {
    run.leave();
    await driving;
  }
}

/** One fetch: the loop that starts requests, and the answers waiting for the consumer. */
class FetchRun<T, R> {
  private failure: { error: unknown } | undefined;
  private left = false;
  private ended = false;
  private inFlight = 0;
  private slotFreed: (() => void) | undefined;
  private ready: R[] = [];
  private waiter: (() => void) | undefined;
  private wakeScheduled = false;
  private readonly items: ChunkFeed<T>;

  constructor(private readonly options: FetchConcurrentlyOptions<T, R>) {
    this.items = new ChunkFeed(options.nextChunk);
  }

  /** Starts requests while slots are free, until the items end or the fetch stops; then waits for those in flight. */
  async drive(): Promise<void> {
    const { controller } = this.options;
    try {
      while (!this.stopping()) {
        while (this.inFlight >= controller.limit) await this.slot();
        if (this.stopping()) break;
        const next = await this.items.next();
        if (next.done || this.stopping()) break;
        this.inFlight += 1;
        void this.fetchOne(next.value);
      }
    } catch (error) {
      this.failure ??= { error };
    }
    while (this.inFlight > 0) await this.slot();
    await this.items.settled();
    this.ended = true;
    this.wake();
  }

  /**
   * The results answered since the last group, once there are some; undefined at the end. Once the
   * fetch stops, the rest waits for the requests in flight and comes as one group.
   */
  async nextGroup(): Promise<R[] | undefined> {
    while (!this.ended && (this.ready.length === 0 || this.stopping())) {
      await new Promise<void>((resolve) => {
        this.waiter = resolve;
      });
    }
    if (this.ready.length === 0) return undefined;
    const group = this.ready;
    this.ready = [];
    return group;
  }

  throwFailure(): void {
    if (this.failure !== undefined) throw this.failure.error;
  }

  /** The consumer is gone: no new request starts. */
  leave(): void {
    this.left = true;
  }

  private stopping(): boolean {
    return this.failure !== undefined || this.left || this.options.signal.aborted;
  }

  private async fetchOne(item: T): Promise<void> {
    const { controller } = this.options;
    let refused = false;
    const started = performance.now();
    try {
      const result = await this.options.fetch(item, () => {
        refused = true;
        controller.onRefused();
      });
      if (!refused) controller.onSuccess(performance.now() - started);
      this.ready.push(result);
      this.wake();
    } catch (error) {
      this.failure ??= { error };
    } finally {
      this.inFlight -= 1;
      this.slotFreed?.();
    }
  }

  private slot(): Promise<void> {
    return new Promise<void>((resolve) => {
      this.slotFreed = resolve;
    });
  }

  /**
   * Wakes a waiting consumer once per turn of the event loop rather than per answer: the answers
   * that arrive together are handed out as one group.
   */
  private wake(): void {
    if (this.waiter === undefined || this.wakeScheduled) return;
    this.wakeScheduled = true;
    setImmediate(() => {
      this.wakeScheduled = false;
      const waiter = this.waiter;
      this.waiter = undefined;
      waiter?.();
    });
  }
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

  /** Waits for a read ahead still running: once the fetch ends, nothing of it reads any more. */
  async settled(): Promise<void> {
    await this.ahead?.catch(() => undefined);
  }
}
