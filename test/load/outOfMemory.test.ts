import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { parquetMetadataAsync } from "hyparquet";
import { expect, test } from "vitest";
import { localDataset } from "../../src/destination/localDataset.js";
import { writeDirtyPartitions } from "../../src/destination/partitionWriter.js";
import { withTempWarehouse } from "../helpers/exportHarness.js";

test("a Parquet partition that needs more memory than DuckDB's limit is retried with a higher limit, said", () =>
  withTempWarehouse(async (warehouse, dir) => {
    // 60k calls with long user agents in one month: far more than the 4 MB limit set below.
    await warehouse.connection.run(`
      INSERT INTO api_calls (id, user_id, method, created_at, updated_at, user_agent, first_seen_run_id, last_changed_run_id)
      SELECT uuid(), uuid(), 'GET', TIMESTAMPTZ '2026-03-01 00:00:00+00' + to_seconds(i), TIMESTAMPTZ '2026-03-01 00:00:00+00',
             repeat(md5(i::VARCHAR), 12), 'run', 'run'
      FROM range(60000) AS t(i)`);
    await warehouse.connection.run("INSERT INTO internal.parquet_dirty VALUES ('api_calls', '2026-03')");
    await warehouse.connection.run("SET memory_limit = '4MB'");
    await warehouse.connection.run("SET threads = 2");
    const warnings: string[] = [];
    const written = await writeDirtyPartitions(warehouse, {
      dataset: "api_calls",
      target: localDataset(path.join(dir, "out")),
      partitioning: "month",
      runId: "run",
      onWarning: (message) => warnings.push(message),
    });
    expect(written).toBe(1);
    expect(warnings.join("\n")).toMatch(/created_month=2026-03.*raised the limit to \d+ MB and retried it/);
    // The retry left one complete file and no temporary one beside it.
    const partitionDir = path.join(dir, "out", "api_calls", "created_month=2026-03");
    expect(await readdir(partitionDir)).toEqual(["data.parquet"]);
    const bytes = await readFile(path.join(partitionDir, "data.parquet"));
    const metadata = await parquetMetadataAsync(
      bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length),
    );
    expect(Number(metadata.num_rows)).toBe(60_000);
  }));
