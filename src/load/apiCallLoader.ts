import { readFile } from "node:fs/promises";
import path from "node:path";
import type { TransformContext } from "../transform/apiCallRow.js";
import { DerivedValues } from "../transform/derivedValues.js";
import { DURATION_UNITS, type DurationUnit } from "../transform/durationUnit.js";
import type { Batch, BatchResult } from "./apiCallBatch.js";
import { ApiCallUpsert, RepeatedIds } from "./apiCallUpsert.js";
import { commitPosition } from "./checkpoint.js";
import type { Warehouse } from "./database.js";
import { retryOnOutOfMemory } from "./outOfMemory.js";
import type { Partitioning } from "./partitioning.js";
import { RawApiCallItems, rowsOfItems } from "./rawApiCallItems.js";
import {
  firstLine,
  idOfLine,
  isReadError,
  readProbe,
  separateRefused,
  serializeReject,
} from "./refusedRows.js";
import { ItemsSpool, RowSpool, Spool } from "./spool.js";
import { fillSql, sqlFile, sqlLiteral } from "./sqlFiles.js";
import { asStorageError } from "./storageError.js";
import { inTransaction } from "./transaction.js";
import { WalCheckpoint } from "./walCheckpoint.js";

// The scan serialises its rejects with it, beside the rows this module loads.
export { type RejectRow, serializeReject } from "./refusedRows.js";

/** A batch's record files: transformed rows (NDJSON), and raw items (one JSON array). */
interface Sources {
  rowsFiles: string[];
  itemsFile?: string | undefined;
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
  private readonly rowSelectSql = sqlFile("statements/select_row_api_calls.sql");
  private readonly rawItems: RawApiCallItems;
  private readonly upsert: ApiCallUpsert;
  private readonly rejectsSql = sqlFile("statements/load_rejects.sql");

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
    this.rawItems = new RawApiCallItems(warehouse, this.spool, options.transform.privacy);
    this.upsert = new ApiCallUpsert(warehouse, options);
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
      await this.warehouse.releaseCache();
      return result;
    } finally {
      await this.spool.cleanup();
      await this.discard(batch);
    }
  }

  /** Closes and removes the batch's spool files (a batch committed, or one that never will be). */
  async discard(batch: Batch): Promise<void> {
    await batch.rows.remove();
    await batch.items.remove();
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
      rowsFiles = [
        ...rowsFiles,
        await this.spool.write("rows", await rowsOfItems(itemsFile, this.options.transform)),
      ];
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
          selects.push(await this.rawItems.select(batch.derived, sources.itemsFile));
        }
        if (selects.length > 0) {
          const counts = await this.upsert.write(batch, selects, mayInsertDirectly);
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
          secretKeyCheck: this.options.transform.secrets.keyCheck,
        });
      });
    } catch (error) {
      throw asStorageError(error, `a batch of api calls to ${this.warehouse.path}`);
    }
    return result;
  }
}
