import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { openWarehouse } from "../../src/load/database.js";
import { INTERNAL_TABLES } from "../../src/load/internalSchema.js";
import { readReportFigures } from "../../src/report/readFigures.js";
import { type RunningSimulator, startSimulator } from "../../src/sim/index.js";
import { exportOnce, queryDb, tempWorkspace, writeDb } from "../helpers/exportHarness.js";

/**
 * A warehouse written by a version that kept its bookkeeping in main (the fixture is that version's
 * sql/ files) keeps working: `report` reads it as it is, and the next export moves the bookkeeping
 * into the internal schema whole, then carries on from it.
 */

const DAY_MS = 86_400_000;
const FIXTURE = path.resolve(import.meta.dirname, "fixtures/mainSchemaWarehouse.sql");

/** Every row of each bookkeeping table, as sorted JSON text, read from `schema`. */
async function bookkeeping(db: string, schema: "main" | "internal"): Promise<Record<string, string[]>> {
  const rows: Record<string, string[]> = {};
  for (const table of INTERNAL_TABLES) {
    // The columns the old layout has: all of them in main, where the old layout is.
    const from = `(SELECT ${schema === "main" ? "*" : oldColumns(table)} FROM ${schema}.${table})`;
    const read = await queryDb(db, `SELECT to_json(t)::VARCHAR AS row FROM ${from} AS t`);
    rows[table] = read.map((row) => String(row.row)).sort();
  }
  return rows;
}

/** The tables of each schema, as `schema.table`. */
async function tablesOf(db: string): Promise<string[]> {
  const rows = await queryDb(
    db,
    "SELECT schema_name || '.' || table_name AS name FROM duckdb_tables() WHERE NOT temporary ORDER BY name",
  );
  return rows.map((row) => String(row.name));
}

/**
 * A bookkeeping table's columns as the old layout has them: warehouse_identity has gained scope and
 * owner_id since, and export_state the secret key's check and the classified invoices' digest.
 */
function oldColumns(table: string): string {
  if (table === "warehouse_identity") return "warehouse_id, created_at";
  return table === "export_state" ? "* EXCLUDE (secret_key_check, classified_invoices)" : "*";
}

/**
 * Turns a warehouse of this version into the one the older version would have made from the same
 * runs: its SQL creates the main tables and the views over them, the rows move back, and the
 * internal schema and what that version did not have (the balance snapshots) go.
 */
async function toMainSchemaLayout(db: string): Promise<void> {
  const moves = INTERNAL_TABLES.map(
    (table) =>
      `INSERT INTO main.${table} SELECT ${oldColumns(table)} FROM internal.${table}; DROP TABLE internal.${table};`,
  ).join("\n");
  const oldSql = await readFile(FIXTURE, "utf8");
  // The fixture makes an identity row of its own in the empty table: the moved one replaces it.
  await writeDb(
    db,
    `BEGIN; ${oldSql}\nDELETE FROM main.warehouse_identity;\n${moves}\nDROP TABLE internal.alert_state;\nDROP TABLE internal.schema_state;\nDROP TABLE internal.focus_partitions;\nDROP TABLE internal.stale_class_days;\nDROP SCHEMA internal;
     DROP VIEW credit_runway; DROP VIEW credit_burn; DROP MACRO usd_per_day; DROP TABLE balance_snapshots; COMMIT;`,
  );
}

describe("a warehouse with its bookkeeping in main", () => {
  let sim: RunningSimulator;
  let token = "";
  const workspace = tempWorkspace();

  beforeAll(async () => {
    sim = await startSimulator({ seed: 23, calls: 1200, days: 3, users: 2, recordOwnTraffic: true });
    token = sim.users[0]?.token ?? "";
  });
  afterAll(async () => {
    await sim.close();
    await (await workspace).cleanup();
  });

  test("report reads it unchanged, and the next export moves every row and resumes from them", async () => {
    const { db, out } = await workspace;
    const flags = { db, out, limit: 200 };
    const first = await exportOnce({ baseUrl: sim.url, token, flags, now: () => sim.clock.now() });
    expect(first.exitCode).toBe(0);
    sim.clock.advance(DAY_MS);
    const second = await exportOnce({ baseUrl: sim.url, token, flags, now: () => sim.clock.now() });
    expect(second.exitCode).toBe(0);
    const current = await bookkeeping(db, "internal");
    const ownSplit =
      "SELECT count(*) FILTER (WHERE is_own_call)::INTEGER AS own, count(*)::INTEGER AS n FROM api_calls_enriched";
    const [split] = await queryDb(db, ownSplit);
    expect(split?.own).toBeGreaterThan(0);

    await toMainSchemaLayout(db);
    expect(await tablesOf(db)).toEqual(
      expect.arrayContaining(INTERNAL_TABLES.map((table) => `main.${table}`)),
    );
    expect((await tablesOf(db)).filter((name) => name.startsWith("internal."))).toEqual([]);
    // The state to carry over: a checkpoint, a ladder, own-call marks, an identity.
    expect(await bookkeeping(db, "main")).toEqual(current);
    expect(current.export_state).toHaveLength(1);
    expect(current.page_ladder?.length).toBeGreaterThan(0);
    expect(current.own_calls?.length).toBe(first.summary.requests + second.summary.requests);
    expect(current.warehouse_identity).toHaveLength(1);

    // report opens read-only: the old layout as it is, own calls recognised through the old views.
    const reader = await openWarehouse(db, { readOnly: true });
    try {
      const figures = await readReportFigures(reader, {
        from: null,
        to: null,
        top: 5,
        generatedAt: new Date(),
      });
      expect(figures.own_calls?.calls).toBe(split?.own);
      // Made before balance snapshots: no credits to show, and no failure either.
      expect(figures.credits).toBeNull();
    } finally {
      reader.close();
    }
    expect((await tablesOf(db)).filter((name) => name.startsWith("internal."))).toEqual([]);

    // The next export: moves the rows (a changed identity would make the Parquet dataset refuse it),
    // resumes incrementally from the moved checkpoint, and keeps marking the older runs' own calls.
    sim.clock.advance(DAY_MS);
    const third = await exportOnce({ baseUrl: sim.url, token, flags, now: () => sim.clock.now() });
    expect(third.exitCode).toBe(0);
    expect(third.summary.scan_mode).toBe("incremental");
    expect(
      (await tablesOf(db)).filter(
        (name) => name.startsWith("main.") && INTERNAL_TABLES.some((t) => name === `main.${t}`),
      ),
    ).toEqual([]);
    const moved = await bookkeeping(db, "internal");
    expect(moved.warehouse_identity).toEqual(current.warehouse_identity);
    for (const row of current.own_calls ?? []) expect(moved.own_calls).toContain(row);
    expect(moved.own_calls?.length).toBe((current.own_calls?.length ?? 0) + third.summary.requests);
    // An incremental scan starts from a ladder rung; the ladder is pruned after it, never emptied.
    expect(moved.page_ladder?.length).toBeGreaterThan(0);
    const [after] = await queryDb(db, ownSplit);
    // The second export's requests came back as own calls in the third's listing.
    expect(Number(after?.own)).toBeGreaterThan(Number(split?.own));
    const [api] = await queryDb(
      db,
      "SELECT count(*)::INTEGER AS n, count(DISTINCT id)::INTEGER AS ids FROM api_calls",
    );
    expect(api?.ids).toBe(api?.n);
  });
});

test("a move that fails leaves the older layout as it was", async () => {
  const workspace = await tempWorkspace();
  try {
    const oldSql = await readFile(FIXTURE, "utf8");
    // An own_calls with a column the internal table lacks: its rows cannot move by name.
    await writeDb(
      workspace.db,
      `${oldSql}
       INSERT INTO page_ladder VALUES ('2026-01-01T00:00:00Z', 'sealed', 'run-1');
       ALTER TABLE own_calls ADD COLUMN later_field VARCHAR;
       INSERT INTO own_calls VALUES (uuid(), 'run-1', 'x');`,
    );
    const before = await bookkeeping(workspace.db, "main");
    await expect(openWarehouse(workspace.db)).rejects.toThrow(/later_field/);
    expect(await bookkeeping(workspace.db, "main")).toEqual(before);
    expect((await tablesOf(workspace.db)).filter((name) => name.startsWith("internal."))).toEqual([]);
  } finally {
    await workspace.cleanup();
  }
});
