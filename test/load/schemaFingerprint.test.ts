import { afterEach, beforeEach, expect, test } from "vitest";
import { openWarehouse } from "../../src/load/database.js";
import { schemaFingerprint } from "../../src/load/schemaFingerprint.js";
import { queryDb, tempWorkspace, writeDb } from "../helpers/exportHarness.js";

/**
 * An open re-applies the schema only when the warehouse may lack some of it: a fingerprint of
 * another schema (an older or newer version), none at all, or a table or view gone. A hand-made
 * comment is the witness: re-applying the schema puts the file's comment back, skipping it leaves
 * the hand-made one.
 */

const HAND_COMMENT = "changed by hand";

let workspace: Awaited<ReturnType<typeof tempWorkspace>>;
beforeEach(async () => {
  workspace = await tempWorkspace();
  (await openWarehouse(workspace.db)).close();
});
afterEach(() => workspace.cleanup());

async function storedFingerprint(): Promise<unknown> {
  const [row] = await queryDb(workspace.db, "SELECT schema_fingerprint FROM internal.warehouse_identity");
  return row?.schema_fingerprint;
}

async function viewComment(view: string): Promise<unknown> {
  const [row] = await queryDb(workspace.db, `SELECT comment FROM duckdb_views() WHERE view_name = '${view}'`);
  return row?.comment;
}

test("a new warehouse stores the fingerprint of the schema it was given", async () => {
  expect(await storedFingerprint()).toBe(schemaFingerprint());
  expect(schemaFingerprint()).toMatch(/^[0-9a-f]{64}$/);
});

test("a warehouse with this schema's fingerprint and every object is opened without re-applying it", async () => {
  await writeDb(workspace.db, `COMMENT ON VIEW cost_per_day IS '${HAND_COMMENT}'`);
  (await openWarehouse(workspace.db)).close();
  expect(await viewComment("cost_per_day")).toBe(HAND_COMMENT);
  expect(await storedFingerprint()).toBe(schemaFingerprint());
});

test("another schema's fingerprint, or none, re-applies the schema and stores this one", async () => {
  for (const stored of ["'another version'", "NULL"]) {
    await writeDb(
      workspace.db,
      `UPDATE internal.warehouse_identity SET schema_fingerprint = ${stored};
       COMMENT ON VIEW cost_per_day IS '${HAND_COMMENT}'`,
    );
    (await openWarehouse(workspace.db)).close();
    expect(await viewComment("cost_per_day"), stored).not.toBe(HAND_COMMENT);
    expect(await viewComment("cost_per_day"), stored).toMatch(/\w/);
    expect(await storedFingerprint(), stored).toBe(schemaFingerprint());
  }
});

test("a view or table dropped by hand is made again by the next open, fingerprint or not", async () => {
  await writeDb(workspace.db, "DROP VIEW cost_per_month_excluding_own; DROP TABLE internal.alert_state");
  (await openWarehouse(workspace.db)).close();
  const present = await queryDb(
    workspace.db,
    `SELECT view_name AS name FROM duckdb_views() WHERE view_name = 'cost_per_month_excluding_own'
     UNION ALL SELECT table_name FROM duckdb_tables() WHERE schema_name = 'internal' AND table_name = 'alert_state'`,
  );
  expect(present.map((row) => row.name).sort()).toEqual(["alert_state", "cost_per_month_excluding_own"]);
});

test("a warehouse made before the fingerprint existed gains the column and the fingerprint", async () => {
  await writeDb(workspace.db, "ALTER TABLE internal.warehouse_identity DROP COLUMN schema_fingerprint");
  (await openWarehouse(workspace.db)).close();
  expect(await storedFingerprint()).toBe(schemaFingerprint());
});
