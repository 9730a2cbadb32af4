import { readFile } from "node:fs/promises";
import path from "node:path";
import {
  type ApiCallRow,
  isEarlier,
  type TransformContext,
  transformApiCall,
} from "../transform/apiCallRow.js";
import { DerivedValues } from "../transform/derivedValues.js";
import { DURATION_UNITS, type DurationUnit, UNITS_PER_MS } from "../transform/durationUnit.js";
import { POLICY_FIELDS, type PrivacyPolicy } from "../transform/privacy.js";
import { commitPosition, type Rung } from "./checkpoint.js";
import type { Warehouse } from "./database.js";
import { markDirty } from "./dirtyPartitions.js";
import { quotedString } from "./duckdb.js";
import { retryOnOutOfMemory } from "./outOfMemory.js";
import type { Partitioning } from "./partitioning.js";
import {
  firstLine,
  idOfLine,
  isReadError,
  readProbe,
  separateRefused,
  serializeReject,
} from "./refusedRows.js";
import { ItemsSpool, RowSpool, Spool } from "./spool.js";
import { fillSql, type SqlLiteral, sqlFile, sqlLiteral } from "./sqlFiles.js";
import { asStorageError } from "./storageError.js";
import { inTransaction } from "./transaction.js";
import { WalCheckpoint } from "./walCheckpoint.js";

// The scan serialises its rejects with it, beside the rows this module loads.
export { type RejectRow, serializeReject } from "./refusedRows.js";

/** Everything one transaction commits: rows, rejects and the checkpoint that covers them. */
export interface Batch {
  /** Records of the pages that go through the row path, transformed and serialised. */
  rows: RowSpool;
  /** Records of the pages DuckDB reads raw (isBulkLoadable), with the values it joins in. */
  items: ItemsSpool;
  derived: DerivedValues;
  rejects: string[];
  rungs: Rung[];
  /** Where to resume if the run stops after this batch (sealed), or null when the scan ended. */
  resumeToken: string | null;
  /** The batch's oldest and newest created_at, as sent (UTC or with an offset). */
  minCreatedAt: string | null;
  maxCreatedAt: string | null;
  /** Set on the first batch ever: the user whose history this database holds from now on. */
  userId: string | null;
}

export interface BatchResult {
  inserted: number;
  updated: number;
  rejected: number;
  /** Of `rejected`, the records DuckDB refused at load time (not the validator's rejects). */
  refusedByDuckDb: number;
}

/** A batch's record files: transformed rows (NDJSON), and raw items (one JSON array). */
interface Sources {
  rowsFiles: string[];
  itemsFile?: string | undefined;
}

export function serializeRow(row: ApiCallRow): string {
  return JSON.stringify(row);
}

/**
 * Notes one accepted record's created_at (an RFC 3339 time, at most 6 fraction digits) in its batch.
 * Compared as instants (isEarlier): as text, "...:00Z" sorts after "...:00.5Z", and offsets do not
 * sort at all.
 */
export function noteRecord(batch: Batch, createdAt: string): void {
  if (batch.minCreatedAt === null || isEarlier(createdAt, batch.minCreatedAt)) batch.minCreatedAt = createdAt;
  if (batch.maxCreatedAt === null || isEarlier(batch.maxCreatedAt, createdAt)) batch.maxCreatedAt = createdAt;
}

/**
 * Commits batches of api_calls into DuckDB. Records travel through spool files that DuckDB reads
 * with explicit column types (faster than appends or bound INSERTs, and DuckDB does the exact
 * DECIMAL/TIMESTAMPTZ casts): raw items as the server sent them when DuckDB reads them to the same
 * row, transformed rows otherwise. Rows, rejects, dirty partitions and checkpoint share one
 * transaction.
 */
export class ApiCallLoader {
  private readonly spool: Spool;
  /** Batches started, to name their spool files. */
  private batches = 0;
  private readonly wal: WalCheckpoint;
  private readonly rowSelectSql = sqlFile("select_row_api_calls.sql");
  private readonly bulkSelectSql = sqlFile("select_bulk_api_calls.sql");
  private readonly privacyLiterals: Record<string, SqlLiteral>;
  private readonly dedupeSql = sqlFile("dedupe_staged_api_calls.sql");
  private readonly changedSql = sqlFile("changed_api_calls.sql");
  private readonly insertSql = sqlFile("insert_api_calls.sql");
  private readonly updateSql = sqlFile("update_api_calls.sql");
  private readonly rejectsSql = sqlFile("load_rejects.sql");

  constructor(
    private readonly warehouse: Warehouse,
    private readonly options: {
      runId: string;
      spoolDir: string;
      durationUnit: DurationUnit;
      partitioning: Partitioning;
      transform: TransformContext;
      onWarning: (message: string) => void;
      /** The clock that dates rejects found at load time. */
      now?: () => Date;
    },
  ) {
    if (!DURATION_UNITS.includes(options.durationUnit)) {
      throw new Error(`unknown duration unit ${options.durationUnit}`);
    }
    this.spool = new Spool(options.spoolDir, options.runId);
    this.wal = new WalCheckpoint(warehouse, options.onWarning);
    this.privacyLiterals = privacyLiterals(options.transform.privacy);
  }

  /** A new, empty batch with its own spool files; it starts where the previous one ended. */
  newBatch(resumeToken: string | null): Batch {
    this.batches += 1;
    const file = (kind: string) =>
      path.join(this.options.spoolDir, `${this.options.runId}-batch-${this.batches}-${kind}`);
    return {
      rows: new RowSpool(file("rows.ndjson")),
      items: new ItemsSpool(file("items.json")),
      derived: new DerivedValues(this.options.transform),
      rejects: [],
      rungs: [],
      resumeToken,
      minCreatedAt: null,
      maxCreatedAt: null,
      userId: null,
    };
  }

  async commit(batch: Batch): Promise<BatchResult> {
    try {
      const rowsFile = await batch.rows.finish();
      const itemsFile = await batch.items.finish();
      const rejectsFile =
        batch.rejects.length > 0 ? await this.spool.write("rejects", batch.rejects) : undefined;
      const sources: Sources = { rowsFiles: rowsFile === undefined ? [] : [rowsFile], itemsFile };
      const result = await retryOnOutOfMemory(
        this.warehouse,
        () => this.commitFiles(batch, sources, rejectsFile),
        (limit) =>
          this.options.onWarning(
            `a batch needed more memory than DuckDB's limit allowed; raised the limit to ${limit} MB and retried it`,
          ),
      );
      await this.wal.afterCommit(result.inserted, result.updated);
      return result;
    } finally {
      await this.spool.cleanup();
      await batch.rows.remove();
      await batch.items.remove();
    }
  }

  /**
   * Commits the batch's files; raw items DuckDB cannot read as validated go through the row path,
   * and rows DuckDB still refuses become rejects (refuseUnloadable).
   */
  private async commitFiles(batch: Batch, sources: Sources, rejectsFile: string | undefined) {
    const { itemsFile } = sources;
    let rowsFiles = sources.rowsFiles;
    try {
      return await this.commitSources(batch, sources, rejectsFile);
    } catch (error) {
      if (!isReadError(error)) throw error;
      if (itemsFile === undefined) return await this.refuseUnloadable(batch, rowsFiles, rejectsFile, error);
      // DuckDB read a raw record otherwise than JavaScript did (a duplicate key, say): those
      // records go through the row path, which stores exactly what was validated.
      this.options.onWarning(
        `DuckDB could not read a batch of raw records as they were validated (${firstLine(error)}); loading them through the row path`,
      );
      rowsFiles = [...rowsFiles, await this.spool.write("rows", await this.rowsOfItems(itemsFile))];
    }
    try {
      return await this.commitSources(batch, { rowsFiles }, rejectsFile);
    } catch (error) {
      if (!isReadError(error)) throw error;
      return await this.refuseUnloadable(batch, rowsFiles, rejectsFile, error);
    }
  }

  /**
   * The safety net behind the validator: DuckDB refused a batch's rows (a value the validator let
   * through and a column cannot hold). The rows DuckDB cannot read are found by halving the batch
   * (findUnreadable), become rejects with DuckDB's reason, and the rest commits with the checkpoint,
   * so the run goes on and ends partial, and the next run does not meet them again. When every row
   * is refused, it is not about one record's data: the error stands.
   */
  private async refuseUnloadable(
    batch: Batch,
    rowsFiles: readonly string[],
    rejectsFile: string | undefined,
    error: unknown,
  ): Promise<BatchResult> {
    const lines: string[] = [];
    for (const file of rowsFiles) {
      for (const line of (await readFile(file, "utf8")).split("\n")) if (line !== "") lines.push(line);
    }
    const probe = readProbe(this.spool, async (file) => {
      const select = fillSql(this.rowSelectSql, { file: sqlLiteral(file) });
      await this.warehouse.connection.run(`CREATE OR REPLACE TEMP TABLE probe_api_calls AS ${select}`);
      await this.warehouse.connection.run("DROP TABLE probe_api_calls");
    });
    const { kept, refused } = await separateRefused(lines, probe, error);
    this.options.onWarning(
      `DuckDB refused ${refused.length} record(s) the validator accepted (${firstLine(error)}); they are in rejects, the rest of the batch is loaded`,
    );
    const refusedRejects = refused.map(({ line, reason }) =>
      serializeReject({
        run_id: this.options.runId,
        rejected_at: (this.options.now ?? (() => new Date()))().toISOString(),
        record_id: idOfLine(line),
        reason: `✖ DuckDB could not load the record: ${reason}`,
        raw_json: line,
      }),
    );
    const allRejects = [...batch.rejects, ...refusedRejects];
    const keptFiles = kept.length > 0 ? [await this.spool.write("rows", kept)] : [];
    const result = await this.commitSources(
      { ...batch, rejects: allRejects },
      { rowsFiles: keptFiles },
      allRejects.length > 0 ? await this.spool.write("rejects", allRejects) : rejectsFile,
    );
    return { ...result, refusedByDuckDb: refused.length };
  }

  /** Commits the batch inserted directly when it may be, through staging when that is undone. */
  private async commitSources(batch: Batch, sources: Sources, rejectsFile: string | undefined) {
    try {
      return await this.commitOnce(batch, sources, rejectsFile, true);
    } catch (error) {
      if (!(error instanceof RepeatedIds)) throw error;
      return await this.commitOnce(batch, sources, rejectsFile, false);
    }
  }

  private async commitOnce(
    batch: Batch,
    sources: Sources,
    rejectsFile: string | undefined,
    mayInsertDirectly: boolean,
  ): Promise<BatchResult> {
    const { connection } = this.warehouse;
    const result: BatchResult = {
      inserted: 0,
      updated: 0,
      rejected: batch.rejects.length,
      refusedByDuckDb: 0,
    };
    const selects = sources.rowsFiles.map((file) => fillSql(this.rowSelectSql, { file: sqlLiteral(file) }));
    try {
      await inTransaction(connection, async () => {
        if (sources.itemsFile !== undefined) {
          await this.stageDerived(batch);
          selects.push(
            fillSql(this.bulkSelectSql, { ...this.privacyLiterals, file: sqlLiteral(sources.itemsFile) }),
          );
        }
        if (selects.length > 0) {
          const counts = await this.loadRows(batch, selects, mayInsertDirectly);
          result.inserted = counts.inserted;
          result.updated = counts.updated;
        }
        if (rejectsFile !== undefined)
          await connection.run(fillSql(this.rejectsSql, { file: sqlLiteral(rejectsFile) }));
        const { rungs, resumeToken, maxCreatedAt, userId } = batch;
        await commitPosition(connection, {
          rungs,
          resumeToken,
          maxCreatedAt,
          userId,
          runId: this.options.runId,
        });
      });
    } catch (error) {
      throw asStorageError(error, `a batch of api calls to ${this.warehouse.path}`);
    }
    return result;
  }

  /**
   * Inserts and updates the batch's rows, read by `selects` (one per spool file), inside the
   * batch's transaction. Straight from the files when no stored call can be among them; through a
   * staging table that tells new rows from changed ones otherwise.
   */
  private async loadRows(
    batch: Batch,
    selects: readonly string[],
    mayInsertDirectly: boolean,
  ): Promise<{ inserted: number; updated: number }> {
    const { connection } = this.warehouse;
    const batchRows = selects.map((select) => `(${select})`).join(" UNION ALL BY NAME ");
    const params = { run_id: this.options.runId, units_per_ms: UNITS_PER_MS[this.options.durationUnit] };
    const dirty = { table: "api_calls", timeColumn: "created_at", partitioning: this.options.partitioning };
    if (mayInsertDirectly && (await this.isNewerThanStored(batch))) {
      await connection.run(`CREATE OR REPLACE TEMP VIEW new_api_calls AS ${batchRows}`);
      const inserted = await connection.run(this.insertSql, params);
      // Rare: an id listed twice in the batch. Undone, and staged, which keeps the newest. The
      // batch's rows are the table's from its oldest call on: nothing stored was that new.
      const repeated = await this.countRepeats(
        "SELECT (count(*) - count(DISTINCT id))::INTEGER FROM api_calls WHERE created_at >= $min::TIMESTAMPTZ",
        { min: batch.minCreatedAt },
      );
      if (repeated) throw new RepeatedIds();
      await markDirty(connection, "api_calls", { ...dirty, since: batch.minCreatedAt });
      return { inserted: inserted.rowsChanged, updated: 0 };
    }
    await connection.run(`CREATE OR REPLACE TEMP TABLE staged_api_calls AS ${batchRows}`);
    const repeated = await this.countRepeats(
      "SELECT (count(*) - count(DISTINCT id))::INTEGER FROM staged_api_calls",
    );
    if (repeated) await connection.run(this.dedupeSql);
    await connection.run(this.changedSql);
    await markDirty(connection, "api_calls", { ...dirty, table: "changed_api_calls" });
    const counts = await connection.runAndReadAll(
      "SELECT count(*) FILTER (WHERE is_new)::INTEGER, count(*) FILTER (WHERE NOT is_new)::INTEGER FROM changed_api_calls",
    );
    const [inserted, updated] = (counts.getRows()[0] ?? [0, 0]) as number[];
    if ((inserted ?? 0) > 0) {
      await connection.run(
        "CREATE OR REPLACE TEMP VIEW new_api_calls AS SELECT * FROM staged_api_calls WHERE id IN (SELECT id FROM changed_api_calls WHERE is_new)",
      );
      await connection.run(this.insertSql, params);
    }
    if ((updated ?? 0) > 0) await connection.run(this.updateSql, params);
    return { inserted: inserted ?? 0, updated: updated ?? 0 };
  }

  /**
   * True when no stored call is as new as the batch's oldest: then none of its records can be
   * stored already, and the batch is inserted straight from its spool files, without a staging
   * table and a join against the table (a cold run, and most of a nightly one). An id's created_at
   * is the call's creation time, which never changes: a stored call with one of the batch's ids
   * would be at least that new.
   */
  private async isNewerThanStored(batch: Batch): Promise<boolean> {
    if (batch.minCreatedAt === null) return false;
    const reader = await this.warehouse.connection.runAndReadAll(
      "SELECT count(*)::INTEGER FROM (SELECT 1 FROM api_calls WHERE created_at >= $min::TIMESTAMPTZ LIMIT 1)",
      { min: batch.minCreatedAt },
    );
    return Number(reader.getRows()[0]?.[0] ?? 1) === 0;
  }

  /** True when `countSql` (rows minus distinct ids) finds an id that stands more than once. */
  private async countRepeats(countSql: string, params: Record<string, string | null> = {}): Promise<boolean> {
    const reader = await this.warehouse.connection.runAndReadAll(countSql, params);
    return Number(reader.getRows()[0]?.[0] ?? 0) > 0;
  }

  /** The values JavaScript derived for the batch's raw records, as the temp table the bulk SELECT joins. */
  private async stageDerived(batch: Batch): Promise<void> {
    const { connection } = this.warehouse;
    const lines = batch.derived.lines();
    if (lines.length === 0) {
      await connection.run(
        "CREATE OR REPLACE TEMP TABLE staged_derived (kind VARCHAR, raw VARCHAR, value VARCHAR)",
      );
      return;
    }
    const file = await this.spool.write("derived", lines);
    await connection.run(
      `CREATE OR REPLACE TEMP TABLE staged_derived AS SELECT * FROM read_json(${quotedString(file)}, format = 'newline_delimited', columns = {kind: 'VARCHAR', raw: 'VARCHAR', value: 'VARCHAR'})`,
    );
  }

  /** The raw records of an items file, transformed and serialised as the row path does. */
  private async rowsOfItems(itemsFile: string): Promise<string[]> {
    const items = JSON.parse(await readFile(itemsFile, "utf8")) as unknown[];
    return items.map((item) => {
      const result = transformApiCall(item, this.options.transform);
      // Every record of the file was validated on the way in; this cannot fail but must not hide.
      if (!result.ok) throw new Error(`a validated record no longer validates: ${result.reason}`);
      return serializeRow(result.row);
    });
  }
}

/**
 * The literals of the bulk SELECT's privacy placeholders: each of token, email and ip_address is
 * kept as it is, dropped, or replaced by its hash joined in from staged_derived. As literals, DuckDB
 * folds each choice when it plans the query.
 */
function privacyLiterals(privacy: PrivacyPolicy): Record<string, SqlLiteral> {
  const literals: Record<string, SqlLiteral> = {};
  for (const { field, policy } of POLICY_FIELDS) literals[`${field}_policy`] = sqlLiteral(privacy[policy]);
  return literals;
}

/** A batch inserted directly listed an id twice: it is undone and loaded through staging. */
class RepeatedIds extends Error {}
