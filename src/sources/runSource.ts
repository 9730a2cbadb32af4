/**
 * A source is one API resource brought into the warehouse, said as four pieces that runSource
 * drives the same way for every source:
 * - extract: `pages`, the HTTP pages (or fetched batches) of raw records, from where the stored
 *   position says (a page token, candidates read from the warehouse, or the start for a list
 *   refreshed in full each run);
 * - transform: `take`, one page's raw records into the open batch as rows or rejects;
 * - load and checkpoint: `commit`, a batch's rows and rejects with the position they reach, in one
 *   transaction (the position never runs ahead of the rows it covers, nor behind them);
 * - `complete`, what reaching the end means (a scan marked complete, a full refresh swapped in).
 * The runner owns the rule between them: batches commit as they fill (one commit in flight while
 * the next pages are read), and whatever ends a run, what was taken is committed first.
 *
 * Sources this shape is made for: api calls of the user or of an org (a paginated list resumed from
 * a page token), operations (candidates read from the warehouse, fetched concurrently, loaded in
 * batches), API tokens and invoices (lists read in full each run), the balance (one GET, one
 * snapshot a run). Where dlt declares a write disposition and Airbyte a checkpoint mode, a source
 * here says the same by what its pieces do: `commit` upserts, appends or stages, and `complete`
 * swaps a list read in full into place; the position lives in the rows `commit` writes.
 */
export interface Source<Page, Batch> {
  /** The resource, as the run's output names it. */
  readonly name: string;
  /** Extract: the pages of raw records, from the stored position on. */
  pages(): AsyncIterable<Page>;
  /** An empty batch, starting where `previous` ends (the position it reached). */
  newBatch(previous: Batch | undefined): Batch;
  /**
   * Transform: takes one page into the batch. Throws when the page must not be taken (its records
   * contradict the pages before it): the run stops there, keeping what came before.
   */
  take(batch: Batch, page: Page): Promise<PageCounts>;
  /** Records and rejects in the batch: it commits when this reaches the batch size. */
  size(batch: Batch): number;
  /** True when the batch is full by another measure than its records (its bytes): it commits now. */
  full?(batch: Batch): boolean;
  /** Load and checkpoint: commits the batch with the position it reaches, in one transaction. */
  commit(batch: Batch): Promise<CommitCounts>;
  /**
   * When `error` (from `pages` or `take`) names where the next run must start, moves the batch's
   * position there and returns true: the batch then commits even if it holds no page. Called only
   * after at least one page was taken.
   */
  stopAt?(batch: Batch, error: unknown): boolean;
  /** After the last page has been taken and committed (never after a stop or a failure). */
  complete(): Promise<void>;
  /**
   * Lets go of what a batch holds (its spool files) when the run ends without committing it: a
   * commit before it failed. After a commit it has nothing left to let go of.
   */
  discard?(batch: Batch): Promise<void>;
  /**
   * True when `pages` ends by itself once the run's signal aborts, its last page what its requests
   * in flight still answered: the runner then reads it to its end rather than leaving after the
   * next page, so no answer is dropped.
   */
  readonly drainsOnStop?: boolean;
}

/** What taking one page found. */
export interface PageCounts {
  records: number;
  rejected: number;
}

/** What committing one batch did. */
export interface CommitCounts {
  inserted: number;
  updated: number;
  /** Records refused at load time (the validator's rejects are counted when taken). */
  refused: number;
}

/** What a source's run did, page and batch counts added up. */
export interface SourceCounts {
  pages: number;
  /** Records taken, valid or rejected. */
  seen: number;
  inserted: number;
  updated: number;
  rejected: number;
}

export interface SourceRun {
  counts: SourceCounts;
  /** complete: the last page was read; stopped: the signal ended it; failed: `failure` did. */
  ended: "complete" | "stopped" | "failed";
  failure?: unknown;
}

export interface RunSourceOptions<Batch> {
  /** Records per transaction: a crash loses at most this many, read again on the next run. */
  batchRecords: number;
  /** Aborted by SIGINT/SIGTERM: the current batch commits and the run stops. */
  signal: AbortSignal;
  /** After each page taken (progress). */
  onPage?: (counts: PageCounts) => void;
  /**
   * After each batch committed, in the commit's turn (before the next commit starts). `last`: the
   * batch committed after the pages ended (or the run stopped), rather than while they are read.
   */
  afterCommit?: (batch: Batch, counts: CommitCounts, last: boolean) => Promise<void>;
}

/**
 * The smallest batch committed early (while the previous commit is done before the batch is full).
 * A commit has a fixed cost of CPU, so committing every page costs more than committing batches.
 */
const EAGER_COMMIT_RECORDS = 10_000;

/**
 * Runs a source to its end, to a stop, or to a failure, and says which with its counts. What was
 * taken before a stop or a failure is committed with its position, so the next run resumes there.
 */
export async function runSource<Page, Batch>(
  source: Source<Page, Batch>,
  options: RunSourceOptions<Batch>,
): Promise<SourceRun> {
  const counts: SourceCounts = { pages: 0, seen: 0, inserted: 0, updated: 0, rejected: 0 };
  const committer = new Committer(source, counts, options.afterCommit);
  let batch = source.newBatch(undefined);
  let batchPages = 0;
  let taken = 0;
  let failure: unknown;
  try {
    for await (const page of source.pages()) {
      counts.pages += 1;
      const found = await source.take(batch, page);
      taken += 1;
      batchPages += 1;
      counts.seen += found.records + found.rejected;
      counts.rejected += found.rejected;
      options.onPage?.(found);
      const size = source.size(batch);
      const { batchRecords } = options;
      const full = source.full?.(batch) ?? false;
      if (shouldCommit({ size, batchRecords, idle: committer.idle, aborted: options.signal.aborted, full })) {
        await committer.start(batch);
        batch = source.newBatch(batch);
        batchPages = 0;
      }
      if (options.signal.aborted && source.drainsOnStop !== true) break;
    }
  } catch (error) {
    failure = error;
  }
  // Whatever ended the run, what was taken so far is committed. A commit that fails is what the
  // run ends with: the storage is the problem then.
  try {
    await committer.settled();
    const stop = failure !== undefined && taken > 0 && (source.stopAt?.(batch, failure) ?? false);
    if (batchPages > 0 || stop) await committer.commit(batch, { last: true });
    if (failure !== undefined) return { counts, ended: "failed", failure };
    if (options.signal.aborted) return { counts, ended: "stopped" };
    await source.complete();
    return { counts, ended: "complete" };
  } catch (error) {
    return { counts, ended: "failed", failure: error };
  } finally {
    await source.discard?.(batch);
  }
}

/** One commit in flight at a time, while the next pages are read. */
class Committer<Page, Batch> {
  idle = true;
  private inFlight: Promise<void> | undefined;

  constructor(
    private readonly source: Source<Page, Batch>,
    private readonly counts: SourceCounts,
    private readonly afterCommit: RunSourceOptions<Batch>["afterCommit"],
  ) {}

  /** Starts committing `batch` once the previous commit is done; throws that commit's failure. */
  async start(batch: Batch): Promise<void> {
    await this.inFlight;
    this.idle = false;
    this.inFlight = this.commit(batch, { last: false }).finally(() => {
      this.idle = true;
    });
    // Its failure is thrown by the next `await`. Until then it needs a handler: a commit that
    // failed while the run awaited a page would crash the process as an unhandled rejection.
    this.inFlight.catch(() => undefined);
  }

  async settled(): Promise<void> {
    await this.inFlight;
  }

  async commit(batch: Batch, { last }: { last: boolean }): Promise<void> {
    const committed = await this.source.commit(batch);
    this.counts.inserted += committed.inserted;
    this.counts.updated += committed.updated;
    this.counts.rejected += committed.refused;
    await this.afterCommit?.(batch, committed, last);
  }
}

/**
 * Whether the run commits its batch after a page: when the batch is full, when the run is stopping,
 * or as soon as the previous commit is done (idle) and the batch is worth a transaction. DuckDB then
 * works while the next pages arrive, and what is left to commit after the last page stays small.
 */
export function shouldCommit(batch: {
  size: number;
  batchRecords: number;
  idle: boolean;
  aborted: boolean;
  full?: boolean;
}): boolean {
  if (batch.size >= batch.batchRecords || batch.aborted || batch.full === true) return true;
  return batch.idle && batch.size >= Math.min(EAGER_COMMIT_RECORDS, batch.batchRecords);
}
