import { rejectedOperation } from "../transform/emptyOperation.js";
import type { OperationRow } from "../transform/operationRow.js";
import type { Warehouse } from "./database.js";
import { markDirty } from "./dirtyPartitions.js";
import type { Partitioning } from "./partitioning.js";
import { isReadError, type RejectRow, readProbe, separateRefused, serializeReject } from "./refusedRows.js";
import { Spool } from "./spool.js";
import { fillSql, sqlFile, sqlLiteral } from "./sqlFiles.js";
import { asStorageError } from "./storageError.js";
import { inTransaction } from "./transaction.js";
import { WalCheckpoint } from "./walCheckpoint.js";

/**
 * When the calls that started a batch's operations were created, at the earliest and the latest
 * (TIMESTAMPTZ text): the join that finds each operation's call reads api_calls within them.
 */
export interface CallTimeBounds {
  from: string;
  to: string;
}

/** Bounds that leave out no call. */
export const UNBOUNDED_CALL_TIMES: CallTimeBounds = { from: "-infinity", to: "infinity" };

export interface OperationBatchResult {
  changed: number;
  /** Operations the validator accepted and DuckDB refused: in rejects, and stored as rejected. */
  refusedByDuckDb: number;
}

/**
 * Commits fetched async operations: rows (only those that changed), rejects and the Parquet
 * partitions to rewrite, in one transaction. Re-running a batch is harmless: it is an upsert by id.
 */
export class OperationLoader {
  private readonly spool: Spool;
  private readonly stageSql = sqlFile("statements/stage_async_operations.sql");
  private readonly upsertSql = sqlFile("statements/upsert_async_operations.sql");
  private readonly rejectsSql = sqlFile("statements/load_rejects.sql");
  private readonly wal: WalCheckpoint;

  constructor(
    private readonly warehouse: Warehouse,
    private readonly options: {
      runId: string;
      spoolDir: string;
      partitioning: Partitioning;
      /** The clock that dates rejects found at load time. */
      now?: () => Date;
      /** Told when a commit's rows could not be written from the WAL into the file. */
      onWarning?: (message: string) => void;
    },
  ) {
    this.spool = new Spool(options.spoolDir, options.runId);
    this.wal = new WalCheckpoint(warehouse, options.onWarning ?? (() => undefined));
  }

  /**
   * Commits a chunk. Behind the validator, a safety net: if DuckDB refuses to read some rows (a
   * value a column cannot hold), those are found by halving the chunk, go to rejects with DuckDB's
   * reason and are stored as 'rejected' (not asked for again), and the rest commits. When every row
   * is refused, the error is not about one body. `calls`: when the rows' calls were created, if
   * known (a row whose call is outside them is not staged).
   */
  async commit(
    rows: readonly OperationRow[],
    rejects: readonly RejectRow[],
    calls: CallTimeBounds = UNBOUNDED_CALL_TIMES,
  ): Promise<OperationBatchResult> {
    const lines = rows.map((row) => JSON.stringify(row));
    try {
      return await this.commitLines(lines, rejects, calls);
    } catch (error) {
      if (!isReadError(error) || lines.length === 0) throw error;
      const probe = readProbe(this.spool, async (file) => {
        await this.warehouse.connection.run(this.stage(file, calls));
      });
      const { refused } = await separateRefused(lines, probe, error);
      const refusedLines = new Set(refused.map(({ line }) => line));
      const now = (this.options.now ?? (() => new Date()))().toISOString();
      const refusedRejects = refused.map(({ line, reason }) => ({
        run_id: this.options.runId,
        rejected_at: now,
        record_id: (JSON.parse(line) as { id: string }).id,
        reason: `async operation: ✖ DuckDB could not load the operation: ${reason}`,
        raw_json: line,
      }));
      const result = await this.commitLines(
        lines.map((line) =>
          refusedLines.has(line)
            ? JSON.stringify(rejectedOperation((JSON.parse(line) as OperationRow).id, now))
            : line,
        ),
        [...rejects, ...refusedRejects],
        calls,
      );
      return { ...result, refusedByDuckDb: refused.length };
    } finally {
      await this.spool.cleanup();
    }
  }

  /** The statements that stage the rows of `file` (stage_async_operations.sql). */
  private stage(file: string, calls: CallTimeBounds): string {
    return fillSql(this.stageSql, {
      file: sqlLiteral(file),
      calls_from: sqlLiteral(calls.from),
      calls_to: sqlLiteral(calls.to),
    });
  }

  private async commitLines(
    lines: readonly string[],
    rejects: readonly RejectRow[],
    calls: CallTimeBounds,
  ): Promise<OperationBatchResult> {
    const { connection } = this.warehouse;
    const result: OperationBatchResult = { changed: 0, refusedByDuckDb: 0 };
    const rowsFile = lines.length > 0 ? await this.spool.write("operations", lines) : undefined;
    const rejectsFile =
      rejects.length > 0
        ? await this.spool.write("operation-rejects", rejects.map(serializeReject))
        : undefined;
    try {
      await inTransaction(connection, async () => {
        if (rowsFile !== undefined) {
          await connection.run(this.stage(rowsFile, calls));
          await markDirty(connection, "async_operations", {
            table: "changed_async_operations",
            timeColumn: "call_created_at",
            partitioning: this.options.partitioning,
          });
          const counted = await connection.runAndReadAll(
            "SELECT count(*)::INTEGER FROM changed_async_operations",
          );
          result.changed = Number(counted.getRows()[0]?.[0] ?? 0);
          await connection.run(this.upsertSql, { run_id: this.options.runId });
        }
        if (rejectsFile !== undefined)
          await connection.run(fillSql(this.rejectsSql, { file: sqlLiteral(rejectsFile) }));
      });
    } catch (error) {
      throw asStorageError(error, `a batch of async operations to ${this.warehouse.path}`);
    }
    // An upsert goes through the WAL whatever its size.
    await this.wal.afterCommit(0, result.changed);
    await this.warehouse.releaseCache();
    return result;
  }
}
