import type { RawApiCallsPage } from "../../api/client.js";
import { PageItems } from "../../api/pageItems.js";
import { type PageEvent, paginate } from "../../extract/paginate.js";
import { PaginationAnomaly } from "../../extract/paginationAnomaly.js";
import { recordKeyCheck } from "../../load/checkpoint.js";
import type { Warehouse } from "../../load/database.js";
import { insertRejects } from "../../load/insertRejects.js";
import type { RejectRow } from "../../load/refusedRows.js";
import { storeOrRefuse } from "../../load/storeOrRefuse.js";
import { inTransaction } from "../../load/transaction.js";
import { rawJsonForReject } from "../../transform/recordJson.js";
import type { CommitCounts, PageCounts, Source } from "../runSource.js";

/** One listed item checked: a row stored under its key, or what the rejects table keeps of it. */
export type CheckedItem<Row> =
  | { ok: true; key: string; row: Row }
  | { ok: false; reject: Omit<RejectRow, "run_id" | "rejected_at"> };

/** What a listing declares: its pages, its records' check, and how a batch of rows is stored. */
export interface Listing<Row, Counts> {
  /** "GET /user/api-tokens", in messages and anomalies. */
  readonly reads: string;
  /** What one item is, in the duplicates warning ("token", "invoice"). */
  readonly noun: string;
  page(pageToken: string | null, signal: AbortSignal): Promise<{ items: unknown[]; nextPage: string | null }>;
  check(item: unknown): CheckedItem<Row>;
  /** Stores a batch of rows, inside the transaction the runner opened. */
  write(rows: readonly Row[]): Promise<Counts>;
  /** Records a row counts for in a batch (an invoice with its lines counts them too). */
  weight?(row: Row): number;
}

export interface ListingEffects {
  warehouse: Warehouse;
  runId: string;
  now: () => Date;
  warn: (message: string, kind?: string) => void;
  maxPages: number;
  /** The check of the secret key the rows' hashes are made with, recorded with every batch. */
  secretKeyCheck: string;
}

interface ListingBatch<Row> {
  rows: { key: string; row: Row; raw: unknown }[];
  rejects: RejectRow[];
  weight: number;
}

/**
 * A listing read in full each run as a source for runSource: every page through paginate's guards
 * (a token handed out twice, empty pages that keep a token, the page bound) and one of its own (a
 * page that brings nothing new), each item checked alone (a bad one is a reject), an item listed
 * again kept as first listed, and the rows stored a bounded batch per transaction.
 */
export class ListingSource<Row, Counts> implements Source<PageEvent, ListingBatch<Row>> {
  /** What was stored: the writer's counts per batch, the rows stored, and copies left out. */
  readonly stored: Counts[] = [];
  rows = 0;
  duplicates = 0;
  private readonly keys = new Set<string>();

  constructor(
    readonly name: string,
    private readonly listing: Listing<Row, Counts>,
    private readonly effects: ListingEffects,
  ) {}

  pages(): AsyncIterable<PageEvent> {
    const page = async (token: string | null, signal: AbortSignal): Promise<RawApiCallsPage> => {
      const { items, nextPage } = await this.listing.page(token, signal);
      return { items: PageItems.parsed(items), nextPage, requestId: undefined };
    };
    return paginate((token, _onNext, signal) => page(token, signal), null, {
      maxPages: this.effects.maxPages,
      listing: this.listing.reads,
    });
  }

  newBatch(): ListingBatch<Row> {
    return { rows: [], rejects: [], weight: 0 };
  }

  async take(batch: ListingBatch<Row>, { page }: PageEvent): Promise<PageCounts> {
    const counts: PageCounts = { records: 0, rejected: 0 };
    let fresh = 0;
    for (const item of page.items) {
      const checked = this.listing.check(item);
      if (!checked.ok) {
        counts.rejected += 1;
        batch.rejects.push(this.rejectRow(checked.reject));
        continue;
      }
      counts.records += 1;
      if (this.keys.has(checked.key)) {
        this.duplicates += 1;
        continue;
      }
      fresh += 1;
      this.keys.add(checked.key);
      batch.rows.push({ key: checked.key, row: checked.row, raw: item });
      batch.weight += this.listing.weight?.(checked.row) ?? 1;
    }
    if (counts.records > 0 && fresh === 0) {
      throw new PaginationAnomaly(
        `a page brought only ${this.listing.noun}s listed before, so the listing does not advance`,
        null,
        this.listing.reads,
      );
    }
    return counts;
  }

  size(batch: ListingBatch<Row>): number {
    return batch.weight + batch.rejects.length;
  }

  async commit(batch: ListingBatch<Row>): Promise<CommitCounts> {
    const { warehouse, warn } = this.effects;
    const { counts, refused } = await storeOrRefuse(
      warehouse,
      batch.rows,
      async (items) => {
        const counts = await this.listing.write(items.map(({ row }) => row));
        // Members' and invoices' emails may be hashed: the key goes with them, as with the calls.
        await recordKeyCheck(warehouse, this.effects.secretKeyCheck);
        return counts;
      },
      (limitMb) => warn(`DuckDB's memory limit raised to ${limitMb} MB for ${this.listing.reads}`),
    );
    const refusedRejects = refused.map(({ item, reason }) =>
      this.rejectRow({
        record_id: item.key,
        reason: `DuckDB refused this ${this.listing.noun}: ${reason}`,
        raw_json: rawJsonForReject(item.raw),
      }),
    );
    const rejects = [...batch.rejects, ...refusedRejects];
    if (rejects.length > 0)
      await inTransaction(warehouse.connection, () => insertRejects(warehouse.connection, rejects));
    this.stored.push(...counts);
    this.rows += batch.rows.length - refused.length;
    return { inserted: batch.rows.length - refused.length, updated: 0, refused: refused.length };
  }

  async complete(): Promise<void> {}

  /** The one warning about items listed twice, however the listing ended. */
  warnDuplicates(): void {
    if (this.duplicates === 0) return;
    this.effects.warn(
      `${this.listing.reads} listed ${this.duplicates} ${this.listing.noun}(s) again under an id listed before: the copy listed first is stored`,
    );
  }

  private rejectRow(reject: Omit<RejectRow, "run_id" | "rejected_at">): RejectRow {
    return { ...reject, run_id: this.effects.runId, rejected_at: this.effects.now().toISOString() };
  }
}
