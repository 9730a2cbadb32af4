import { mkdir, readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { ApiCallWithPriceSchema } from "../../src/api/schemas/index.js";
import { noteRecord, serializeRow } from "../../src/load/apiCallBatch.js";
import { ApiCallLoader } from "../../src/load/apiCallLoader.js";
import { openWarehouse, type Warehouse } from "../../src/load/database.js";
import { SecretBox } from "../../src/secrets/secretBox.js";
import { startSimulator } from "../../src/sim/index.js";
import { KNOWN_FIELDS, type TransformContext, transformApiCall } from "../../src/transform/apiCallRow.js";
import { EndpointTemplater } from "../../src/transform/endpointTemplate.js";
import { tempWorkspace, withTempWarehouse } from "../helpers/exportHarness.js";
import { describeQuery, readJsonColumns, sqlText, tableColumns, typed } from "../helpers/tableShapes.js";

/**
 * The api_calls table as sql/tables/api_calls.sql creates it is the one definition of a stored call's shape.
 * Every other place that spells its columns out is checked against that table here: the spool read
 * of each load path, the row type, the insert and the update, the Parquet columns, and the schema
 * fields the raw read takes.
 */

const here = import.meta.dirname ?? path.dirname(fileURLToPath(import.meta.url));

/** The billing class columns: stored by the run once its calls and invoices are in (callClasses.ts). */
const BILLING = ["billing_class", "billing_reason", "billing_invoice_id"];

/** Columns the load computes rather than reads from a spool file. */
const COMPUTED = [
  "duration_ms",
  "created_day",
  "created_month",
  "first_seen_run_id",
  "last_changed_run_id",
  ...BILLING,
];

/** The item fields the raw (bulk) read stores under another name. */
const BULK_RENAMED: Record<string, string> = {
  duration: "duration_raw",
  price: "price_usd",
  token: "token_hash",
};

const context = (): TransformContext => ({
  templater: new EndpointTemplater(),
  secrets: new SecretBox(Buffer.alloc(32, 3)),
  privacy: { token: "keep", email: "keep", ipAddress: "keep" },
  maxPriceUsd: 1_000_000,
});

const ID = "0198c2a4-6a7b-7cc4-9d3e-5f1a2b3c4d5e";

/** A record with every field set, and a price and an unknown field that fill price_raw, price_flags and extra. */
const FIRST = {
  id: ID,
  user_id: "7d3c1e2a-4b5f-4a6b-9c8d-0e1f2a3b4c5d",
  org_id: "11111111-2222-4333-8444-555555555555",
  created_at: "2026-03-01T10:00:00.123456Z",
  updated_at: "2026-03-01T10:05:00Z",
  started_at: "2026-03-01T10:00:01Z",
  completed_at: "2026-03-01T10:00:09Z",
  duration: 3469926000,
  email: "grace@example.net",
  endpoint: "/file/conversion/fbx/step",
  ip_address: "217.190.51.207",
  method: "POST",
  minutes: 1,
  seconds: 4,
  origin: "https://zoo.dev",
  price: "0.1234567",
  request_query_params: "a=1",
  status_code: 201,
  stripe_invoice_item_id: "ii_1",
  token: "dd7f5f94-06f4-4310-8e45-71989f8e4ea5",
  user_agent: "python-requests/2.32.3",
  first_unknown: { a: 1 },
};

/**
 * The same call with every other field changed and a later updated_at: the version that wins. Even
 * created_at, which a real call never changes, so that every column the update sets is seen to change.
 */
const SECOND = {
  id: ID,
  user_id: "8d3c1e2a-4b5f-4a6b-9c8d-0e1f2a3b4c5d",
  org_id: "21111111-2222-4333-8444-555555555555",
  created_at: "2026-02-27T10:00:00.5Z",
  updated_at: "2026-03-02T10:05:00Z",
  started_at: "2026-03-01T10:00:02Z",
  completed_at: "2026-03-01T10:00:19Z",
  duration: 17000000000,
  email: "ada@example.net",
  endpoint: "/ai/text-to-cad/step",
  ip_address: "10.0.0.1",
  method: "PUT",
  minutes: 2,
  seconds: 5,
  origin: "https://app.zoo.dev",
  price: "-0.7654321",
  request_query_params: "b=2",
  status_code: 202,
  stripe_invoice_item_id: "ii_2",
  token: "ed7f5f94-06f4-4310-8e45-71989f8e4eb6",
  user_agent: "zoo-cli/1.0",
  second_unknown: [2],
};

/** Loads one record through the row path, as a batch of run `runId`; the stored call, column by column. */
async function load(warehouse: Warehouse, dir: string, runId: string, record: object) {
  const spoolDir = path.join(dir, `${runId}-spool`);
  await mkdir(spoolDir, { recursive: true });
  const loader = new ApiCallLoader(warehouse, {
    runId,
    spoolDir,
    durationUnit: "ns",
    partitioning: "month",
    transform: context(),
    onWarning: () => undefined,
  });
  const batch = loader.newBatch(null);
  const result = transformApiCall(record, context());
  if (!result.ok) throw new Error(result.reason);
  noteRecord(batch, result.row.created_at);
  batch.rows.append([serializeRow(result.row)]);
  const counts = await loader.commit(batch);
  const reader = await warehouse.connection.runAndReadAll("SELECT * FROM api_calls WHERE id = $id::UUID", {
    id: ID,
  });
  const row = reader.getRowObjectsJson()[0];
  if (row === undefined) throw new Error("the call was not stored");
  return { counts, row };
}

/** The properties of components.schemas.ApiCallWithPrice in the vendored spec. */
async function specFields(): Promise<string[]> {
  const spec = JSON.parse(await readFile(path.resolve(here, "../../spec/zoo-openapi.json"), "utf8")) as {
    components: { schemas: Record<string, { properties: Record<string, unknown> }> };
  };
  return Object.keys(spec.components.schemas.ApiCallWithPrice?.properties ?? {});
}

describe("the api_calls shape: sql/tables/api_calls.sql, and every copy of its columns", () => {
  test("the row path's spool read takes every column but those the load computes, typed as the table", async () => {
    await withTempWarehouse(async (warehouse) => {
      const table = await tableColumns(warehouse, "api_calls");
      const read = readJsonColumns(await sqlText("statements/select_row_api_calls.sql"));
      expect(typed(read)).toEqual(typed(table.filter(([name]) => !COMPUTED.includes(name))));
    });
  });

  test("a transformed row has exactly the columns the spool read takes", async () => {
    const result = transformApiCall(FIRST, context());
    if (!result.ok) throw new Error(result.reason);
    const read = readJsonColumns(await sqlText("statements/select_row_api_calls.sql"));
    expect(Object.keys(result.row).sort()).toEqual(read.map(([name]) => name).sort());
  });

  test("the raw read takes every field the schema (and the spec) knows, typed as its column", async () => {
    const schemaFields = Object.keys(ApiCallWithPriceSchema.shape);
    expect([...KNOWN_FIELDS].sort()).toEqual(schemaFields.sort());
    expect(schemaFields.sort()).toEqual((await specFields()).sort());
    await withTempWarehouse(async (warehouse) => {
      const table = new Map(await tableColumns(warehouse, "api_calls"));
      const read = readJsonColumns(await sqlText("statements/select_bulk_api_calls.sql"));
      expect(read.map(([field]) => field).sort()).toEqual(schemaFields.sort());
      const stored = read.map(([field, type]) => `${BULK_RENAMED[field] ?? field} ${type}`);
      expect(stored).toEqual(
        read.map(([field]) => {
          const column = BULK_RENAMED[field] ?? field;
          return `${column} ${table.get(column)}`;
        }),
      );
    });
  });

  test("the simulator serves the spec's fields and no others (src/sim/types.ts mirrors them by hand)", async () => {
    const sim = await startSimulator({ seed: 5, calls: 2000, days: 10, users: 1 });
    try {
      const url = new URL("/user/api-calls", sim.url);
      url.searchParams.set("limit", "5000");
      const response = await fetch(url, {
        headers: { authorization: `Bearer ${sim.users[0]?.token}` },
        signal: AbortSignal.timeout(10_000),
      });
      const { items } = (await response.json()) as { items: Record<string, unknown>[] };
      expect(items.length).toBeGreaterThan(1000);
      const served = new Set(items.flatMap((item) => Object.keys(item)));
      expect([...served].sort()).toEqual((await specFields()).sort());
    } finally {
      await sim.close();
    }
  });

  test("a new call fills every column; a newer version overwrites all but id and first_seen_run_id", async () => {
    const { dir, cleanup } = await tempWorkspace();
    const updatedDb = await openWarehouse(path.join(dir, "updated.duckdb"));
    const freshDb = await openWarehouse(path.join(dir, "fresh.duckdb"));
    try {
      const first = await load(updatedDb, dir, "run-1", FIRST);
      expect(first.counts.inserted).toBe(1);
      expect(
        Object.entries(first.row).filter(([column, value]) => value === null && !BILLING.includes(column)),
      ).toEqual([]);

      const second = await load(updatedDb, dir, "run-2", SECOND);
      expect(second.counts.updated).toBe(1);
      const unchanged = Object.keys(second.row).filter(
        (column) => second.row[column] === first.row[column] && !BILLING.includes(column),
      );
      expect(unchanged.sort()).toEqual(["first_seen_run_id", "id"]);
      expect(second.row.first_seen_run_id).toBe("run-1");

      // The update stores each column as an insert of that version does.
      const fresh = await load(freshDb, dir, "run-2", SECOND);
      expect(second.row).toEqual({ ...fresh.row, first_seen_run_id: "run-1" });
    } finally {
      updatedDb.close();
      freshDb.close();
      await cleanup();
    }
  });

  test("the Parquet dataset has the table's columns but the run ids and the derived day, month and class, ids and JSON as text", async () => {
    await withTempWarehouse(async (warehouse) => {
      const table = await tableColumns(warehouse, "api_calls");
      const written = await describeQuery(warehouse, await sqlText("parquet/api_calls.sql"));
      const asText = (type: string) => (type === "UUID" || type === "JSON" ? "VARCHAR" : type);
      const expected = table
        // The day and month are created_at's (the partition column holds them); the billing class
        // moves with the invoices, which would rewrite old partitions: it stays in the warehouse.
        .filter(
          ([name]) =>
            ![
              "first_seen_run_id",
              "last_changed_run_id",
              "created_day",
              "created_month",
              ...BILLING,
            ].includes(name),
        )
        .map(([name, type]) => [name, asText(type)] as const);
      expect(typed(written)).toEqual(typed(expected));
    });
  });
});

test("every INSERT in sql/ names its columns (a column list or BY NAME)", async () => {
  const sqlDir = path.resolve(here, "../../sql");
  const inserts: string[] = [];
  for (const file of (await readdir(sqlDir, { recursive: true })).filter((name) => name.endsWith(".sql"))) {
    const text = (await readFile(path.join(sqlDir, file), "utf8")).replace(/--.*$/gm, "");
    for (const match of text.matchAll(
      /INSERT\s+(?:OR\s+\w+\s+)?INTO\s+(?:\w+\.)?\w+\s*(\(|BY\s+NAME\b)?/gi,
    )) {
      inserts.push(
        `${file}: ${match[0].replace(/\s+/g, " ")}${match[1] === undefined ? " (positional)" : ""}`,
      );
    }
  }
  expect(inserts.length).toBeGreaterThan(0);
  expect(inserts.filter((insert) => insert.endsWith("(positional)"))).toEqual([]);
});
