import { mkdir, stat } from "node:fs/promises";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { OperationLoader } from "../../src/load/operationLoader.js";
import { type RejectRow, serializeReject } from "../../src/load/refusedRows.js";
import { notFoundOperation } from "../../src/transform/emptyOperation.js";
import { type OperationRow, transformOperation } from "../../src/transform/operationRow.js";
import { withTempWarehouse } from "../helpers/exportHarness.js";
import { describeQuery, readJsonColumns, sqlText, tableColumns, typed } from "../helpers/tableShapes.js";

/**
 * The async_operations and rejects tables as sql/tables/ creates them define the shape of a
 * stored operation and reject: the spool reads, the row types, the upsert and the Parquet columns
 * are checked against them here.
 */

/** Columns the upsert computes rather than reads from the spool file. */
const COMPUTED = ["queue_ms", "run_ms", "fetch_run_id"];
/** The column the staging joins in from the call that started the operation. */
const JOINED = "call_created_at";

const ID = "0198c2a4-6a7b-7cc4-9d3e-5f1a2b3c4d5e";
const OTHER_ID = "0198c2a4-6a7b-7cc4-9d3e-5f1a2b3c4d5f";
const AT = "2026-11-01T00:00:00.000000Z";

function foundRow(): OperationRow {
  const result = transformOperation(
    ID,
    {
      id: ID,
      type: "file_conversion",
      status: "completed",
      user_id: "48f46e74-3130-4dfb-8717-d6dcdd0fb317",
      created_at: "2026-10-01T10:00:00.123456Z",
      started_at: "2026-10-01T10:00:01Z",
      completed_at: "2026-10-01T10:00:05Z",
      updated_at: "2026-10-01T10:00:05Z",
      error: null,
      src_format: "step",
      output_format: "obj",
      output_format_options: {
        type: "obj",
        units: "mm",
        coords: { forward: { axis: "y", direction: "negative" }, up: { axis: "z", direction: "positive" } },
      },
      outputs: { "part.obj": Buffer.from("v 0 0 0\n").toString("base64") },
    },
    AT,
  );
  if (!result.ok) throw new Error(result.reason);
  return result.row;
}

describe("the async_operations shape: sql/tables/async_operations.sql, and every copy of its columns", () => {
  test("the staging read takes every column but the joined and computed ones, typed as the table", async () => {
    await withTempWarehouse(async (warehouse) => {
      const table = await tableColumns(warehouse, "async_operations");
      const read = readJsonColumns(await sqlText("statements/stage_async_operations.sql"));
      const spooled = table.filter(([name]) => name !== JOINED && !COMPUTED.includes(name));
      expect(typed(read)).toEqual(typed(spooled));
    });
  });

  test("an operation row, found or not, has exactly the columns the staging read takes", async () => {
    const read = readJsonColumns(await sqlText("statements/stage_async_operations.sql")).map(
      ([name]) => name,
    );
    expect(Object.keys(foundRow()).sort()).toEqual(read.sort());
    expect(Object.keys(notFoundOperation(OTHER_ID, AT)).sort()).toEqual(read.sort());
  });

  test("the upsert stores each staged column in the column of its name, and the computed ones", async () => {
    await withTempWarehouse(async (warehouse, dir) => {
      const { connection } = warehouse;
      for (const id of [ID, OTHER_ID]) {
        await connection.run(
          "INSERT INTO api_calls (id, user_id, method, created_at, updated_at, first_seen_run_id, last_changed_run_id) VALUES ($id::UUID, $id::UUID, 'POST', '2026-10-01T10:00:00Z', '2026-10-01T10:00:00Z', 'run', 'run')",
          { id },
        );
      }
      const spoolDir = path.join(dir, "spool");
      await mkdir(spoolDir);
      const loader = new OperationLoader(warehouse, { runId: "run-ops", spoolDir, partitioning: "month" });
      const result = await loader.commit([foundRow(), notFoundOperation(OTHER_ID, AT)], []);
      expect(result.changed).toBe(2);
      // The staged table stays on the connection after the commit: each of its columns against
      // the stored one of the same name.
      const staged = (await describeQuery(warehouse, "SELECT * FROM staged_async_operations")).map(
        ([name]) => name,
      );
      const differing = await connection.runAndReadAll(
        `SELECT ${staged.map((name) => `count(*) FILTER (WHERE s.${name} IS DISTINCT FROM o.${name})::INTEGER AS ${name}`).join(", ")}
         FROM staged_async_operations AS s JOIN async_operations AS o USING (id)`,
      );
      const counts = differing.getRowObjectsJson()[0] ?? {};
      expect(Object.entries(counts).filter(([, count]) => count !== 0)).toEqual([]);
      const computed = await connection.runAndReadAll(
        "SELECT queue_ms, run_ms, fetch_run_id FROM async_operations WHERE id = $id::UUID",
        { id: ID },
      );
      expect(computed.getRowsJson()).toEqual([[876.544, 4000, "run-ops"]]);
    });
  });

  test("a commit's upsert is written into the file at once, not held in the WAL and in memory", async () => {
    await withTempWarehouse(async (warehouse, dir) => {
      await warehouse.connection.run(
        "INSERT INTO api_calls (id, user_id, method, created_at, updated_at, first_seen_run_id, last_changed_run_id) VALUES ($id::UUID, $id::UUID, 'POST', '2026-10-01T10:00:00Z', '2026-10-01T10:00:00Z', 'run', 'run')",
        { id: ID },
      );
      const spoolDir = path.join(dir, "spool");
      await mkdir(spoolDir);
      const warnings: string[] = [];
      const loader = new OperationLoader(warehouse, {
        runId: "run-ops",
        spoolDir,
        partitioning: "month",
        onWarning: (message) => warnings.push(message),
      });
      const walBytes = () =>
        stat(path.join(dir, "db.duckdb.wal")).then(
          (wal) => wal.size,
          () => 0,
        );
      await loader.commit([foundRow()], []);
      expect(await walBytes()).toBe(0);
      // The same operation again: an update of the stored row, through the WAL too.
      await loader.commit([{ ...foundRow(), fetched_at: "2026-10-02T00:00:00.000Z" }], []);
      expect(await walBytes()).toBe(0);
      expect(warnings).toEqual([]);
    });
  });

  test("the Parquet dataset has the table's columns but the run id, with ids and JSON as text", async () => {
    await withTempWarehouse(async (warehouse) => {
      const table = await tableColumns(warehouse, "async_operations");
      const written = await describeQuery(warehouse, await sqlText("parquet/async_operations.sql"));
      const asText = (type: string) => (type === "UUID" || type === "JSON" ? "VARCHAR" : type);
      const expected = table
        .filter(([name]) => name !== "fetch_run_id")
        .map(([name, type]) => [name, asText(type)] as const);
      expect(typed(written)).toEqual(typed(expected));
    });
  });
});

test("the rejects table, its spool read and a serialised RejectRow have the same columns", async () => {
  const reject: RejectRow = { run_id: "r", rejected_at: AT, record_id: null, reason: "x", raw_json: "{}" };
  await withTempWarehouse(async (warehouse) => {
    const table = await tableColumns(warehouse, "rejects");
    const read = readJsonColumns(await sqlText("statements/load_rejects.sql"));
    expect(typed(read)).toEqual(typed(table));
    expect(Object.keys(JSON.parse(serializeReject(reject))).sort()).toEqual(
      read.map(([name]) => name).sort(),
    );
  });
});
