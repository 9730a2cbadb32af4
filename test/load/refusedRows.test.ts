import { mkdir } from "node:fs/promises";
import path from "node:path";
import { expect, test } from "vitest";
import { serializeRow } from "../../src/load/apiCallBatch.js";
import { ApiCallLoader } from "../../src/load/apiCallLoader.js";
import { openWarehouse } from "../../src/load/database.js";
import { OperationLoader } from "../../src/load/operationLoader.js";
import { SecretBox } from "../../src/secrets/secretBox.js";
import { type TransformContext, transformApiCall } from "../../src/transform/apiCallRow.js";
import { EndpointTemplater } from "../../src/transform/endpointTemplate.js";
import { transformOperation } from "../../src/transform/operationRow.js";
import { tempWorkspace } from "../helpers/exportHarness.js";
import { validCall, validOperation } from "../helpers/hostileApi.js";

/**
 * The loaders' safety net behind the validator (src/load/refusedRows.ts), fed rows that skip the
 * validator, as a future gap in it would let through, on a real DuckDB file.
 */

const context: TransformContext = {
  templater: new EndpointTemplater(),
  secrets: new SecretBox(Buffer.alloc(32, 3)),
  privacy: { token: "hash", email: "keep", ipAddress: "keep" },
  maxPriceUsd: 1_000_000,
};

test("the loader's safety net: rows DuckDB refuses become rejects with its reason, the rest commits", async () => {
  const { dir, cleanup } = await tempWorkspace();
  const spoolDir = path.join(dir, "spool");
  await mkdir(spoolDir);
  const warehouse = await openWarehouse(path.join(dir, "db.duckdb"));
  const warnings: string[] = [];
  try {
    const loader = new ApiCallLoader(warehouse, {
      runId: "run",
      spoolDir,
      durationUnit: "ns",
      partitioning: "month",
      transform: context,
      onWarning: (message) => warnings.push(message),
    });
    await warehouse.connection.run("INSERT INTO internal.export_state (singleton) VALUES (true)");
    const batch = loader.newBatch("sealed-token");
    const lines = Array.from({ length: 40 }, (_, minute) => {
      const result = transformApiCall(validCall(minute), context);
      if (!result.ok) throw new Error(result.reason);
      return serializeRow(result.row);
    });
    // Rows past the validator that a column cannot hold, as a future gap in it would let through.
    lines[7] = (lines[7] as string).replace('"status_code":200', '"status_code":2147483648');
    lines[31] = (lines[31] as string).replace(/"created_at":"[^"]+"/, '"created_at":"2026-02-30T00:00:00Z"');
    batch.rows.append(lines);
    batch.minCreatedAt = String(validCall(0).created_at);
    batch.maxCreatedAt = String(validCall(39).created_at);
    const result = await loader.commit(batch);
    expect(result).toMatchObject({ inserted: 38, rejected: 2, refusedByDuckDb: 2 });
    expect(warnings.join("\n")).toMatch(/DuckDB refused 2 record\(s\)/);
    const rejects = await warehouse.connection.runAndReadAll(
      "SELECT record_id, reason FROM rejects ORDER BY record_id",
    );
    expect(rejects.getRowsJS()).toEqual([
      [validCall(7).id, expect.stringMatching(/DuckDB could not load the record: .*2147483648/)],
      [validCall(31).id, expect.stringMatching(/DuckDB could not load the record: .*2026-02-30/)],
    ]);
    const state = await warehouse.connection.runAndReadAll("SELECT resume_token FROM internal.export_state");
    expect(state.getRowsJS()).toEqual([["sealed-token"]]);

    const operations = new OperationLoader(warehouse, { runId: "run", spoolDir, partitioning: "month" });
    const rows = [0, 1, 2, 3].map((minute) => {
      const transformed = transformOperation(
        String(validCall(minute).id),
        validOperation(minute),
        "2026-10-02T00:00:00Z",
      );
      if (!transformed.ok) throw new Error(transformed.reason);
      return transformed.row;
    });
    rows[2] = { ...(rows[2] as (typeof rows)[number]), user_id: "not-a-uuid" };
    const committed = await operations.commit(rows, []);
    expect(committed).toEqual({ changed: 4, refusedByDuckDb: 1 });
    const refused = await warehouse.connection.runAndReadAll(
      `SELECT reason FROM rejects WHERE record_id = '${String(validCall(2).id)}'`,
    );
    expect(String(refused.getRowsJS()[0]?.[0])).toMatch(/DuckDB could not load the operation/);
    const marked = await warehouse.connection.runAndReadAll(
      `SELECT fetch_status FROM async_operations WHERE id = '${String(validCall(2).id)}'`,
    );
    expect(marked.getRowsJS()).toEqual([["rejected"]]);
  } finally {
    warehouse.close();
    await cleanup();
  }
});

test("a batch DuckDB refuses whole is not turned into rejects: the error stands", async () => {
  const { dir, cleanup } = await tempWorkspace();
  const spoolDir = path.join(dir, "spool");
  await mkdir(spoolDir);
  const warehouse = await openWarehouse(path.join(dir, "db.duckdb"));
  try {
    const loader = new ApiCallLoader(warehouse, {
      runId: "run",
      spoolDir,
      durationUnit: "ns",
      partitioning: "month",
      transform: context,
      onWarning: () => undefined,
    });
    const batch = loader.newBatch(null);
    batch.rows.append(['{"id":"not-a-uuid"}', '{"id":"also-not"}']);
    await expect(loader.commit(batch)).rejects.toThrow(/Conversion Error|Invalid Input/);
    const rejects = await warehouse.connection.runAndReadAll("SELECT count(*)::INTEGER FROM rejects");
    expect(rejects.getRowsJS()).toEqual([[0]]);
  } finally {
    warehouse.close();
    await cleanup();
  }
});
