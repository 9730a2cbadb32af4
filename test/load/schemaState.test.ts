import { afterAll, beforeEach, describe, expect, test } from "vitest";
import { openWarehouse } from "../../src/load/database.js";
import { schemaKey } from "../../src/load/schemaState.js";
import { sqlFile } from "../../src/load/sqlFiles.js";
import { queryDb, tempWorkspace, writeDb } from "../helpers/exportHarness.js";
import { fileSha256 } from "../helpers/fileSha256.js";

/**
 * An open skips the schema only when the warehouse's catalog is the one this version's last
 * application left. Whether it skipped shows in the file: an open that applies nothing and a close
 * with nothing to checkpoint leave its bytes as they were, where an application rewrites the
 * catalog. Each tampering below is what another version, a user or a crash can leave; after each,
 * one open puts the schema back and the next one writes nothing again.
 */

const workspace = await tempWorkspace();
afterAll(() => workspace.cleanup());

/** Opens and closes the warehouse; true when the file's bytes changed. */
async function openChanges(db: string): Promise<boolean> {
  const before = await fileSha256(db);
  (await openWarehouse(db)).close();
  return (await fileSha256(db)) !== before;
}

/** What the tampering below changes, read in one query: the schema's pieces and the record. */
async function snapshot(db: string): Promise<Record<string, unknown>> {
  const [row] = await queryDb(
    db,
    `SELECT
       (SELECT sql FROM duckdb_views() WHERE view_name = 'cost_per_day') AS view,
       (SELECT count(*) FROM duckdb_views() WHERE view_name = 'cost_per_method_status') AS dropped_view,
       (SELECT macro_definition FROM duckdb_functions() WHERE function_name = 'usd_per_day') AS macro,
       (SELECT comment FROM duckdb_columns() WHERE table_name = 'api_calls' AND column_name = 'price_usd') AS comment,
       (SELECT schema_key FROM internal.schema_state) AS key`,
  );
  return row ?? {};
}

describe("an open skips a schema that is already there", () => {
  let ours: Record<string, unknown>;

  beforeEach(async () => {
    // A warehouse as this version leaves it, settled: its second open writes nothing.
    (await openWarehouse(workspace.db)).close();
    expect(await openChanges(workspace.db)).toBe(false);
    ours = await snapshot(workspace.db);
    expect(ours).toMatchObject({ dropped_view: 1n, key: schemaKey() });
  });

  test("a new warehouse records the key of this version's schema", async () => {
    const rows = await queryDb(workspace.db, "SELECT schema_key, catalog_digest FROM internal.schema_state");
    expect(rows).toHaveLength(1);
    expect(rows[0]?.schema_key).toBe(schemaKey());
    expect(String(rows[0]?.catalog_digest)).toMatch(/^[0-9a-f]{64}$/);
  });

  test("the digest an open records is the one another DuckDB reads from the file", async () => {
    // DuckDB prints some definitions it loaded from a file otherwise than as parsed (the columns of
    // a view's `* EXCLUDE (a, b)` in no fixed order): a schema that does so would be applied again
    // at every open.
    const [recorded] = await queryDb(workspace.db, "SELECT catalog_digest FROM internal.schema_state");
    const [read] = await queryDb(workspace.db, sqlFile("statements/catalog_digest.sql"));
    expect(read?.digest).toBe(recorded?.catalog_digest);
  });

  test.each([
    ["a view another version made otherwise", "CREATE OR REPLACE VIEW cost_per_day AS SELECT 1 AS day"],
    ["a view dropped", "DROP VIEW cost_per_method_status"],
    ["a macro another version made otherwise", "CREATE OR REPLACE MACRO usd_per_day(usd, elapsed_us) AS usd"],
    ["a comment changed by hand", "COMMENT ON COLUMN api_calls.price_usd IS 'mine'"],
    ["a comment removed", "COMMENT ON COLUMN api_calls.price_usd IS NULL"],
    ["a table of the user's own in main", "CREATE TABLE my_notes (note VARCHAR)"],
    ["another version's application recorded", "UPDATE internal.schema_state SET schema_key = 'another'"],
    ["a crash between the schema's commit and its record", "DELETE FROM internal.schema_state"],
  ])("%s: the next open applies the schema again", async (_, tampering) => {
    await writeDb(workspace.db, tampering);
    expect(await openChanges(workspace.db)).toBe(true);
    expect(await snapshot(workspace.db)).toEqual(ours);
    // Settled again: the open after it writes nothing.
    expect(await openChanges(workspace.db)).toBe(false);
  });

  test("a warehouse id deleted by hand is made again, as a full application would", async () => {
    await writeDb(workspace.db, "DELETE FROM internal.warehouse_identity");
    (await openWarehouse(workspace.db)).close();
    const [row] = await queryDb(workspace.db, "SELECT count(*) AS ids FROM internal.warehouse_identity");
    expect(row?.ids).toBe(1n);
  });
});
