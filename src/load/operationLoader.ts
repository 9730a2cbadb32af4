import type { OperationRow } from "../transform/operationRow.js";
import type { RejectRow } from "./apiCallLoader.js";
import type { Warehouse } from "./database.js";
import { quotedString } from "./duckdb.js";
import { PARTITION_FORMAT, type Partitioning } from "./partitioning.js";
import { Spool } from "./spool.js";
import { fillSql, sqlFile } from "./sqlFiles.js";
import { asStorageError } from "./storageError.js";

export interface OperationBatchResult {
  changed: number;
}

/**
 * Commits fetched async operations: rows (only those that changed), rejects and the Parquet
 * partitions to rewrite, in one transaction. Re-running a batch is harmless: it is an upsert by id.
 */
export class OperationLoader {
  private readonly spool: Spool;
  private readonly stageSql = sqlFile("stage_async_operations.sql");
  private readonly upsertSql = sqlFile("upsert_async_operations.sql");
  private readonly rejectsSql = sqlFile("load_rejects.sql");

  constructor(
    private readonly warehouse: Warehouse,
    private readonly options: { runId: string; spoolDir: string; partitioning: Partitioning },
  ) {
    this.spool = new Spool(options.spoolDir, options.runId);
  }

  async commit(rows: readonly OperationRow[], rejects: readonly RejectRow[]): Promise<OperationBatchResult> {
    const { connection } = this.warehouse;
    const result: OperationBatchResult = { changed: 0 };
    try {
      const rowsFile =
        rows.length > 0
          ? await this.spool.write(
              "operations",
              rows.map((row) => JSON.stringify(row)),
            )
          : undefined;
      const rejectsFile =
        rejects.length > 0
          ? await this.spool.write(
              "operation-rejects",
              rejects.map((row) => JSON.stringify(row)),
            )
          : undefined;
      await connection.run("BEGIN TRANSACTION");
      try {
        if (rowsFile !== undefined) {
          await connection.run(fillSql(this.stageSql, { file: quotedString(rowsFile) }));
          await connection.run(
            "INSERT INTO parquet_dirty SELECT DISTINCT 'async_operations', strftime(timezone('UTC', call_created_at), $format) FROM changed_async_operations ON CONFLICT DO NOTHING",
            { format: PARTITION_FORMAT[this.options.partitioning] },
          );
          const counted = await connection.runAndReadAll(
            "SELECT count(*)::INTEGER FROM changed_async_operations",
          );
          result.changed = Number(counted.getRows()[0]?.[0] ?? 0);
          await connection.run(this.upsertSql, { run_id: this.options.runId });
        }
        if (rejectsFile !== undefined)
          await connection.run(fillSql(this.rejectsSql, { file: quotedString(rejectsFile) }));
        await connection.run("COMMIT");
      } catch (error) {
        await connection.run("ROLLBACK").catch(() => undefined);
        throw asStorageError(error, `a batch of async operations to ${this.warehouse.path}`);
      }
      return result;
    } finally {
      await this.spool.cleanup();
    }
  }
}
