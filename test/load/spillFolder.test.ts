import { readdir } from "node:fs/promises";
import path from "node:path";
import { expect, test } from "vitest";
import { openWarehouse } from "../../src/load/database.js";
import { tempWorkspace } from "../helpers/exportHarness.js";

test("DuckDB starts with at least 512 MB, spills past its limit beside the database, and the folder goes at close", async () => {
  const { dir, cleanup } = await tempWorkspace();
  try {
    const db = path.join(dir, "zoo.duckdb");
    const warehouse = await openWarehouse(db);
    const setting = async (name: string) =>
      (
        await warehouse.connection.runAndReadAll(`SELECT current_setting('${name}')::VARCHAR`)
      ).getRows()[0]?.[0];
    expect(await setting("temp_directory")).toBe(`${db}.tmp`);
    // DuckDB shows the limit in binary units: 512 MB reads as 488.2 MiB.
    expect(String(await setting("memory_limit"))).toMatch(/^(?:4[89]\d(?:\.\d+)? MiB|\d+(?:\.\d+)? GiB)$/);
    await warehouse.connection.run("SET memory_limit = '64MB'");
    await warehouse.connection.run("SET preserve_insertion_order = false");
    // A sort of ~150 MB under a 64 MB limit: done by spilling, not refused.
    const sorted = await warehouse.connection.runAndReadAll(
      "SELECT count(*)::INTEGER FROM (SELECT md5(i::VARCHAR) || md5((i + 1)::VARCHAR) AS k FROM range(1500000) t(i) ORDER BY k)",
    );
    expect(sorted.getRows()).toEqual([[1500000]]);
    warehouse.close();
    expect((await readdir(dir)).filter((entry) => entry.endsWith(".tmp"))).toEqual([]);
  } finally {
    await cleanup();
  }
});
