import path from "node:path";
import { type DuckDBConnection, DuckDBInstance } from "@duckdb/node-api";
import { expect, test } from "vitest";
import { openWarehouse } from "../../src/load/database.js";
import { tempWorkspace } from "../helpers/exportHarness.js";

const INSERT_CALLS = (rows: number, run: string) => `
  INSERT INTO api_calls (id, user_id, method, created_at, updated_at, user_agent, first_seen_run_id, last_changed_run_id)
  SELECT uuid(), uuid(), 'GET', now(), now(), 'agent', '${run}', '${run}' FROM range(${rows})`;

test("an export writes row groups of 16,384 rows, also into a database made with DuckDB's default", async () => {
  const { dir, cleanup } = await tempWorkspace();
  const file = path.join(dir, "db.duckdb");
  try {
    // A database as DuckDB makes it when opened directly (another tool, an older export): 122,880-row groups.
    const direct = await DuckDBInstance.create(file);
    const connection = await direct.connect();
    await connection.run("CREATE TABLE api_calls_before AS SELECT range AS i FROM range(130000)");
    connection.closeSync();
    direct.closeSync();

    const writer = await openWarehouse(file);
    await writer.connection.run(INSERT_CALLS(40_000, "new"));
    // DuckDB spills beside the database, as when it opens the file itself, not into the working directory.
    const spill = await writer.connection.runAndReadAll("SELECT current_setting('temp_directory')");
    expect(spill.getRows()[0]?.[0]).toBe(`${file}.tmp`);
    writer.close();

    const reader = await openWarehouse(file, { readOnly: true });
    try {
      const groups = async (table: string) =>
        (
          await reader.connection.runAndReadAll(
            `SELECT row_group_id, max(count)::INTEGER FROM pragma_storage_info('${table}') GROUP BY 1 ORDER BY 1`,
          )
        )
          .getRows()
          .map((row) => Number(row[1]));
      expect(await groups("api_calls")).toEqual([16_384, 16_384, 40_000 - 2 * 16_384]);
      expect(await groups("api_calls_before")).toEqual([122_880, 130_000 - 122_880]);
    } finally {
      reader.close();
    }
  } finally {
    await cleanup();
  }
});

/** The row counts of the row groups of api_calls, in order. */
async function rowGroupSizes(connection: DuckDBConnection): Promise<number[]> {
  const groups = await connection.runAndReadAll(
    "SELECT row_group_id, max(count)::INTEGER FROM pragma_storage_info('api_calls') GROUP BY 1 ORDER BY 1",
  );
  return groups.getRows().map((row) => Number(row[1]));
}

test("checkpoints during a run keep each batch's row groups; the close after it merges once a table", async () => {
  const { dir, cleanup } = await tempWorkspace();
  const file = path.join(dir, "db.duckdb");
  try {
    const writer = await openWarehouse(file);
    // Eight batches of 17,000 rows: a full row group each, and a short one of 616 rows.
    for (let batch = 0; batch < 8; batch++) await writer.connection.run(INSERT_CALLS(17_000, `b${batch}`));
    await writer.connection.run("CHECKPOINT");
    const written = await rowGroupSizes(writer.connection);
    expect(written).toEqual(Array.from({ length: 8 }, () => [16_384, 616]).flat());
    // A run's last writes (its row in runs) leave the close a checkpoint to make.
    await writer.connection.run(INSERT_CALLS(1, "last"));
    await writer.mergeAtClose();
    writer.close();

    const reader = await openWarehouse(file, { readOnly: true });
    try {
      // The first four row groups become three; the last row makes one more. One merge, not all.
      const merged = await rowGroupSizes(reader.connection);
      expect(merged).toEqual([16_384, 16_384, 1_232, ...written.slice(4), 1]);
    } finally {
      reader.close();
    }
  } finally {
    await cleanup();
  }
});

test("releaseCache lets DuckDB's cached table blocks go past 64 MB and sets its limit back, a raised one too", async () => {
  const { dir, cleanup } = await tempWorkspace();
  const writer = await openWarehouse(path.join(dir, "db.duckdb"));
  try {
    const { connection } = writer;
    const cachedMb = async () =>
      Number(
        (
          await connection.runAndReadAll(
            "SELECT (coalesce(sum(memory_usage_bytes), 0) // 1048576)::INTEGER FROM duckdb_memory() WHERE tag = 'BASE_TABLE'",
          )
        ).getRows()[0]?.[0],
      );
    const limit = async () =>
      String((await connection.runAndReadAll("SELECT current_setting('memory_limit')")).getRows()[0]?.[0]);
    // ~80 MB of values that do not compress, read back so that their blocks are cached.
    await connection.run("CREATE TABLE big AS SELECT hash(range) AS h FROM range(10000000)");
    await connection.run("CHECKPOINT");
    await connection.runAndReadAll("SELECT sum(h::HUGEINT) FROM big");
    expect(await cachedMb()).toBeGreaterThan(64);
    const before = await limit();
    await writer.releaseCache();
    expect(await cachedMb()).toBeLessThanOrEqual(32);
    expect(await limit()).toBe(before);
    // A limit the out-of-memory retry raised is the one set back.
    await connection.runAndReadAll("SELECT sum(h::HUGEINT) FROM big");
    const raised = await writer.raiseMemoryLimit();
    expect(raised).toBeGreaterThan(512);
    const raisedLimit = await limit();
    expect(raisedLimit).not.toBe(before);
    await writer.releaseCache();
    expect(await limit()).toBe(raisedLimit);
  } finally {
    writer.close();
    await cleanup();
  }
});
