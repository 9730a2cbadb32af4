import type { SourceResult } from "../declaredSource.js";
import type { RunContext } from "../runContext.js";
import { runSource } from "../runSource.js";
import { type Listing, ListingSource } from "./listingSource.js";

/**
 * Records per transaction of a listing: the batch is held as rows and as its JSON text while it
 * commits, so this bounds what a listing of any length holds in memory and in DuckDB at once.
 */
export const LISTING_BATCH_RECORDS = 5000;
/** Pages one listing reads at most: at 1,000 items a page, ten million items. */
export const LISTING_MAX_PAGES = 10_000;

/** What a listing reports: rows stored, copies left out, and the writer's counts per batch. */
export interface ListingDetails<Counts> {
  rows: number;
  duplicates: number;
  batches: Counts[];
}

/** Runs a listing to its end (or a stop, or a failure) as a source, in bounded batches. */
export async function runListing<Row, Counts>(
  name: string,
  listing: Listing<Row, Counts>,
  context: RunContext,
): Promise<SourceResult<ListingDetails<Counts>>> {
  const { deps, options, warn } = context;
  const source = new ListingSource(name, listing, {
    warehouse: deps.warehouse,
    runId: options.runId,
    now: deps.now,
    warn,
    maxPages: LISTING_MAX_PAGES,
    secretKeyCheck: deps.secrets.keyCheck,
  });
  const run = await runSource(source, {
    batchRecords: LISTING_BATCH_RECORDS,
    signal: deps.signal,
  });
  source.warnDuplicates();
  if (run.counts.rejected > 0)
    warn(
      `${run.counts.rejected} ${listing.noun}(s) of ${listing.reads} could not be stored: see the rejects table`,
    );
  return { ...run, details: { rows: source.rows, duplicates: source.duplicates, batches: source.stored } };
}
