import { existsSync } from "node:fs";
import { mkdir, readdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { expect, test } from "vitest";
import { localDataset } from "../../src/destination/localDataset.js";
import { writeDirtyPartitions } from "../../src/destination/partitionWriter.js";
import { withTempWarehouse } from "../helpers/exportHarness.js";

test("a dirty partition left with no rows loses its file and folder; one with rows is rewritten", () =>
  withTempWarehouse(async (warehouse, dir) => {
    const out = path.join(dir, "out");
    const emptied = path.join(out, "api_calls", "created_month=2026-02");
    await mkdir(emptied, { recursive: true });
    await writeFile(path.join(emptied, "data.parquet"), "rows that are gone");
    await warehouse.connection.run(`
      INSERT INTO api_calls (id, user_id, method, created_at, updated_at, price_usd, first_seen_run_id, last_changed_run_id)
      VALUES (uuid(), uuid(), 'GET', TIMESTAMPTZ '2026-03-02 10:00:00+00', TIMESTAMPTZ '2026-03-02 10:00:00+00', 0.25, 'run', 'run')`);
    await warehouse.connection.run(
      "INSERT INTO internal.parquet_dirty (dataset, partition) VALUES ('api_calls', '2026-02'), ('api_calls', '2026-03')",
    );
    const written = await writeDirtyPartitions(warehouse, {
      dataset: "api_calls",
      target: localDataset(out),
      partitioning: "month",
      runId: "run",
    });
    expect(written).toBe(2);
    expect(existsSync(emptied)).toBe(false);
    expect(await readdir(path.join(out, "api_calls"))).toEqual(["created_month=2026-03"]);
    expect(await readdir(path.join(out, "api_calls", "created_month=2026-03"))).toEqual(["data.parquet"]);
    const dirty = await warehouse.connection.runAndReadAll(
      "SELECT count(*)::INTEGER FROM internal.parquet_dirty",
    );
    expect(dirty.getRows()).toEqual([[0]]);
  }));
