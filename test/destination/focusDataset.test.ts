import { existsSync } from "node:fs";
import { rm } from "node:fs/promises";
import path from "node:path";
import { DuckDBInstance, quotedString } from "@duckdb/node-api";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { writeFocusDataset } from "../../src/destination/focusDataset.js";
import { localDataset } from "../../src/destination/localDataset.js";
import { openWarehouse, type Warehouse } from "../../src/load/database.js";
import { deriveCallColumns } from "../helpers/derivedCallColumns.js";
import { tempWorkspace } from "../helpers/exportHarness.js";

/**
 * The FOCUS dataset under a local --out: one file per billing period holding the view's rows, a
 * period rewritten only when its rows changed or its file is gone, and removed when it has no rows
 * left, as the digests in internal.focus_partitions say.
 */

let warehouse: Warehouse;
let out: string;
let cleanup: () => Promise<void>;
const NOW = new Date("2026-11-28T00:00:00Z");

beforeAll(async () => {
  const workspace = await tempWorkspace();
  cleanup = workspace.cleanup;
  out = workspace.out;
  warehouse = await openWarehouse(workspace.db);
  for (const [n, day] of [
    [1, "2026-09-03"],
    [2, "2026-10-05"],
    [3, "2026-10-06"],
  ] as const) {
    await warehouse.connection.run(
      // Billable calls no invoice has billed yet: one usage row each.
      `INSERT INTO api_calls (id, user_id, method, endpoint_template, created_at, updated_at, completed_at, price_usd,
         seconds, stripe_invoice_item_id, first_seen_run_id, last_changed_run_id)
       VALUES ($id::UUID, '00000000-0000-4000-8000-00000000aaaa'::UUID, 'POST', '/file/volume', $at::TIMESTAMPTZ,
         $at::TIMESTAMPTZ, $at::TIMESTAMPTZ, 1.25, 150, 'ii_' || $id, 'r', 'r')`,
      { id: `00000000-0000-4000-8000-00000000000${n}`, at: `${day}T10:00:00Z` },
    );
    await deriveCallColumns(warehouse.connection);
  }
});
afterAll(async () => {
  warehouse?.close();
  await cleanup?.();
});

const target = () => localDataset(out);
const write = (runId: string) => writeFocusDataset(warehouse, target(), { runId, now: NOW });
const file = (period: string) => path.join(out, "focus", `billing_period=${period}`, "data.parquet");

/** The rows and cost the files hold, read back by another DuckDB. */
async function readFiles(): Promise<Record<string, unknown>[]> {
  const instance = await DuckDBInstance.create(":memory:");
  const connection = await instance.connect();
  try {
    const glob = quotedString(path.join(out, "focus", "*", "*.parquet"));
    const reader = await connection.runAndReadAll(
      `SELECT billing_period, count(*)::INTEGER AS n, sum(BilledCost)::VARCHAR AS cost
       FROM read_parquet(${glob}, hive_partitioning = true) GROUP BY 1 ORDER BY 1`,
    );
    return reader.getRowObjectsJS() as Record<string, unknown>[];
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

describe("the FOCUS dataset of a local --out", () => {
  test("a first write makes one file a billing period, holding the view's rows", async () => {
    expect(await write("r1")).toEqual({ written: 2, unchanged: 0, removed: 0, rows: 3 });
    expect(await readFiles()).toEqual([
      { billing_period: "2026-09", n: 1, cost: "1.250000" },
      { billing_period: "2026-10", n: 2, cost: "2.500000" },
    ]);
  });

  test("nothing changed: nothing is written", async () => {
    expect(await write("r2")).toEqual({ written: 0, unchanged: 2, removed: 0, rows: 3 });
  });

  test("a price that moved rewrites its period only; a file deleted by hand is written again", async () => {
    await warehouse.connection.run(
      "UPDATE api_calls SET price_usd = 2.5 WHERE id = '00000000-0000-4000-8000-000000000002'",
    );
    await deriveCallColumns(warehouse.connection);
    await rm(file("2026-09"));
    expect(await write("r3")).toEqual({ written: 2, unchanged: 0, removed: 0, rows: 3 });
    expect(await readFiles()).toEqual([
      { billing_period: "2026-09", n: 1, cost: "1.250000" },
      { billing_period: "2026-10", n: 2, cost: "3.750000" },
    ]);
    expect(await write("r4")).toEqual({ written: 0, unchanged: 2, removed: 0, rows: 3 });
  });

  test("a period left with no rows is removed, file and folder", async () => {
    await warehouse.connection.run(
      "DELETE FROM api_calls WHERE created_at < TIMESTAMPTZ '2026-10-01 00:00:00+00'",
    );
    await deriveCallColumns(warehouse.connection);
    expect(await write("r5")).toEqual({ written: 0, unchanged: 1, removed: 1, rows: 2 });
    expect(existsSync(path.dirname(file("2026-09")))).toBe(false);
    expect(await readFiles()).toEqual([{ billing_period: "2026-10", n: 2, cost: "3.750000" }]);
    const digests = await warehouse.connection.runAndReadAll(
      "SELECT billing_period FROM internal.focus_partitions",
    );
    expect(digests.getRows()).toEqual([["2026-10"]]);
  });
});
