import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { openWarehouse } from "../../src/load/database.js";
import { queryDb, tempWorkspace, writeDb } from "../helpers/exportHarness.js";

/**
 * Every table, view and column zoo-usage creates explains itself to a BI tool: a comment that
 * survives the close and a reopen (which recreates the views), read back the way a reader sees the
 * file (read-only, another instance). docs/warehouse.md names every one of them.
 */

/** A name of main as it is, one of the internal schema as `internal.name`. */
const QUALIFIED = "CASE schema_name WHEN 'main' THEN '' ELSE schema_name || '.' END";

/**
 * The tables, views and macros of the warehouse (not DuckDB's own, not temp), with their comments:
 * the data in main, the exporter's bookkeeping in internal.
 */
const OBJECTS_SQL = `
  SELECT 'table' AS kind, ${QUALIFIED} || table_name AS name, comment FROM duckdb_tables()
  WHERE database_name = current_database() AND schema_name IN ('main', 'internal') AND NOT temporary AND NOT internal
  UNION ALL
  SELECT 'view', view_name, comment FROM duckdb_views()
  WHERE database_name = current_database() AND schema_name = 'main' AND NOT temporary AND NOT internal
  UNION ALL
  SELECT 'macro', function_name, comment FROM duckdb_functions()
  WHERE database_name = current_database() AND schema_name = 'main' AND NOT internal
    AND function_type IN ('macro', 'table_macro')
  ORDER BY kind, name`;

const COLUMNS_SQL = `
  SELECT ${QUALIFIED} || table_name || '.' || column_name AS name, comment FROM duckdb_columns()
  WHERE database_name = current_database() AND schema_name IN ('main', 'internal') AND NOT internal
  ORDER BY schema_name, table_name, column_index`;

function uncommented(rows: Record<string, unknown>[]): string[] {
  return rows
    .filter((row) => typeof row.comment !== "string" || row.comment.trim() === "")
    .map((row) => String(row.name));
}

let db = "";
let cleanup = async () => {};

beforeAll(async () => {
  const workspace = await tempWorkspace();
  db = workspace.db;
  cleanup = workspace.cleanup;
  (await openWarehouse(db)).close();
});

afterAll(async () => {
  await cleanup();
});

describe("warehouse comments", () => {
  test("a fresh warehouse comments every table, view and column", async () => {
    const objects = await queryDb(db, OBJECTS_SQL);
    const columns = await queryDb(db, COLUMNS_SQL);
    expect(objects.filter((row) => row.kind === "table").length).toBeGreaterThanOrEqual(10);
    expect(objects.filter((row) => row.kind === "view").length).toBeGreaterThanOrEqual(17);
    // The views' helper macros sit in main beside them, listed by BI tools too.
    expect(objects.filter((row) => row.kind === "macro").map((row) => row.name)).toContain("usd_per_day");
    expect(columns.length).toBeGreaterThan(250);
    expect([...uncommented(objects), ...uncommented(columns)]).toEqual([]);
    const internalTables = objects.filter((row) => String(row.name).startsWith("internal."));
    expect(internalTables.map((row) => row.name).sort()).toEqual([
      "internal.alert_state",
      "internal.export_state",
      "internal.focus_partitions",
      "internal.own_calls",
      "internal.page_ladder",
      "internal.parquet_dirty",
      "internal.pending_rereads",
      "internal.schema_state",
      "internal.stale_class_days",
      "internal.warehouse_identity",
    ]);
  });

  test("a reopened warehouse keeps them, views included, and view columns say what their source says", async () => {
    (await openWarehouse(db)).close();
    const objects = await queryDb(db, OBJECTS_SQL);
    const columns = await queryDb(db, COLUMNS_SQL);
    expect([...uncommented(objects), ...uncommented(columns)]).toEqual([]);
    const [row] = await queryDb(
      db,
      `SELECT t.comment AS table_comment, v.comment AS view_comment
       FROM duckdb_columns() AS t JOIN duckdb_columns() AS v USING (column_name)
       WHERE t.table_name = 'api_calls' AND v.table_name = 'api_calls_enriched' AND column_name = 'minutes'`,
    );
    expect(row?.table_comment).toMatch(/minutes the call was billed for/);
    expect(row?.view_comment).toBe(row?.table_comment);
  });
});

describe("warehouse comments on an older database", () => {
  test("a database with a keyed api_calls and fewer export_state columns opens, and what it has is commented", async () => {
    const workspace = await tempWorkspace();
    try {
      await writeDb(
        workspace.db,
        `CREATE TABLE api_calls (
           id UUID PRIMARY KEY, user_id UUID NOT NULL, org_id UUID, method VARCHAR NOT NULL,
           endpoint VARCHAR, endpoint_template VARCHAR, status_code INTEGER,
           created_at TIMESTAMPTZ NOT NULL, started_at TIMESTAMPTZ, completed_at TIMESTAMPTZ,
           updated_at TIMESTAMPTZ NOT NULL, duration_raw BIGINT, duration_ms DOUBLE, minutes INTEGER,
           seconds INTEGER, price_usd DECIMAL(18, 6), token_hash VARCHAR, email VARCHAR,
           ip_address VARCHAR, origin VARCHAR, user_agent VARCHAR, request_query_params VARCHAR,
           stripe_invoice_item_id VARCHAR, extra JSON, first_seen_run_id VARCHAR NOT NULL,
           last_changed_run_id VARCHAR NOT NULL);
         INSERT INTO api_calls (id, user_id, method, created_at, updated_at, first_seen_run_id, last_changed_run_id)
         SELECT uuid(), uuid(), 'GET', now(), now(), 'old', 'old' FROM range(100);
         CREATE TABLE export_state (singleton BOOLEAN PRIMARY KEY DEFAULT true CHECK (singleton),
           user_id UUID, resume_token VARCHAR, resume_run_id VARCHAR, high_water_created TIMESTAMPTZ,
           last_complete_scan TIMESTAMPTZ);`,
      );
      (await openWarehouse(workspace.db)).close();
      const columns = await queryDb(workspace.db, COLUMNS_SQL);
      expect(columns.map((row) => row.name)).toContain("api_calls.price_flags");
      expect(columns.map((row) => row.name)).toContain("internal.export_state.duration_unit");
      expect(uncommented(columns)).toEqual([]);
    } finally {
      await workspace.cleanup();
    }
  });
});

/** The backticked names in the first cell of each row of a markdown table under `heading`. */
function namesListedUnder(page: string, heading: string): Set<string> {
  const start = page.indexOf(`\n${heading}`);
  if (start < 0) throw new Error(`docs/warehouse.md has no "${heading}" section`);
  const end = page.indexOf("\n#", start + 1);
  const names = new Set<string>();
  for (const line of page.slice(start, end < 0 ? undefined : end).split("\n")) {
    const firstCell = /^\|([^|]*)\|/.exec(line)?.[1] ?? "";
    for (const [, name] of firstCell.matchAll(/`((?:internal\.)?\w+)`/g))
      if (name !== undefined) names.add(name);
  }
  return names;
}

describe("docs/warehouse.md, the warehouse reference", () => {
  test("lists every table under Tables and every view under Views", async () => {
    const page = await readFile(path.resolve(import.meta.dirname, "../../docs/warehouse.md"), "utf8");
    const objects = await queryDb(db, OBJECTS_SQL);
    const listedTables = namesListedUnder(page, "## Tables");
    const listedViews = namesListedUnder(page, "## Views");
    const tables = objects.filter((row) => row.kind === "table").map((row) => String(row.name));
    const views = objects.filter((row) => row.kind === "view").map((row) => String(row.name));
    expect(tables.filter((name) => !listedTables.has(name))).toEqual([]);
    expect(views.filter((name) => !listedViews.has(name))).toEqual([]);
    // And nothing listed that the warehouse does not have.
    expect([...listedTables].filter((name) => !tables.includes(name))).toEqual([]);
    expect([...listedViews].filter((name) => !views.includes(name))).toEqual([]);
  });
});
