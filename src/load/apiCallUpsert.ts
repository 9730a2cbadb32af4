import { type DurationUnit, UNITS_PER_MS } from "../transform/durationUnit.js";
import { markStaleClasses } from "./callClasses.js";
import type { Warehouse } from "./database.js";
import { markDirty } from "./dirtyPartitions.js";
import type { Partitioning } from "./partitioning.js";
import { sqlFile } from "./sqlFiles.js";

/** A batch inserted directly listed an id twice: it is undone and loaded through staging. */
export class RepeatedIds extends Error {}

/**
 * Inserts a batch's new api_calls and updates its changed ones, inside the batch's transaction, and
 * marks the Parquet partitions they touch.
 */
export class ApiCallUpsert {
  private readonly dedupeSql = sqlFile("statements/dedupe_staged_api_calls.sql");
  private readonly changedSql = sqlFile("statements/changed_api_calls.sql");
  private readonly insertSql = sqlFile("statements/insert_api_calls.sql");
  private readonly updateSql = sqlFile("statements/update_api_calls.sql");

  constructor(
    private readonly warehouse: Warehouse,
    private readonly options: { runId: string; durationUnit: DurationUnit; partitioning: Partitioning },
  ) {}

  /**
   * Inserts and updates the batch's rows, read by `selects` (one per spool file). Straight from the
   * files when no stored call can be among them; through a staging table that tells new rows from
   * changed ones otherwise. Throws RepeatedIds when a batch inserted directly listed an id twice.
   */
  async write(
    batch: { minCreatedAt: string | null },
    selects: readonly string[],
    mayInsertDirectly: boolean,
  ): Promise<{ inserted: number; updated: number }> {
    const { connection } = this.warehouse;
    const batchRows = selects.map((select) => `(${select})`).join(" UNION ALL BY NAME ");
    const params = { run_id: this.options.runId, units_per_ms: UNITS_PER_MS[this.options.durationUnit] };
    const dirty = { table: "api_calls", timeColumn: "created_at", partitioning: this.options.partitioning };
    if (mayInsertDirectly && (await this.isNewerThanStored(batch.minCreatedAt))) {
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
      await markStaleClasses(connection, { table: "api_calls", since: batch.minCreatedAt });
      return { inserted: inserted.rowsChanged, updated: 0 };
    }
    await connection.run(`CREATE OR REPLACE TEMP TABLE staged_api_calls AS ${batchRows}`);
    const repeated = await this.countRepeats(
      "SELECT (count(*) - count(DISTINCT id))::INTEGER FROM staged_api_calls",
    );
    if (repeated) await connection.run(this.dedupeSql);
    await connection.run(this.changedSql);
    await markDirty(connection, "api_calls", { ...dirty, table: "changed_api_calls" });
    await markStaleClasses(connection, { table: "changed_api_calls" });
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
  private async isNewerThanStored(minCreatedAt: string | null): Promise<boolean> {
    if (minCreatedAt === null) return false;
    const reader = await this.warehouse.connection.runAndReadAll(
      "SELECT count(*)::INTEGER FROM (SELECT 1 FROM api_calls WHERE created_at >= $min::TIMESTAMPTZ LIMIT 1)",
      { min: minCreatedAt },
    );
    return Number(reader.getRows()[0]?.[0] ?? 1) === 0;
  }

  /** True when `countSql` (rows minus distinct ids) finds an id that stands more than once. */
  private async countRepeats(countSql: string, params: Record<string, string | null> = {}): Promise<boolean> {
    const reader = await this.warehouse.connection.runAndReadAll(countSql, params);
    return Number(reader.getRows()[0]?.[0] ?? 0) > 0;
  }
}
