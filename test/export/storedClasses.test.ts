import { DuckDBInstance, quotedString } from "@duckdb/node-api";
import { afterAll, beforeAll, expect, test } from "vitest";
import type { ExportFlags } from "../../src/config/exportFlags.js";
import { storeCallClasses } from "../../src/load/callClasses.js";
import { openWarehouse } from "../../src/load/database.js";
import { type RunningSimulator, startSimulator } from "../../src/sim/index.js";
import { exportOnce, queryDb, tempWorkspace, writeDb } from "../helpers/exportHarness.js";
import { expectStoredClassesFresh } from "../helpers/storedClasses.js";

/**
 * The billing classes stored on the calls (src/load/callClasses.ts) follow the calls night after
 * night: billing that lands days late changes calls without a new invoice (only the days marked
 * stale are classified again), and a month's invoice changes every call's class (every day is).
 * After each night the stored classes equal a classification of every call made from scratch.
 */
const DAY_MS = 86_400_000;

let sim: RunningSimulator;
let token = "";
const workspace = tempWorkspace();
beforeAll(async () => {
  sim = await startSimulator({
    seed: 31,
    calls: 1500,
    days: 40,
    users: 1,
    now: new Date("2026-06-10T00:00:00Z"),
    lateBilling: { share: 0.3, days: [1, 20], monthEndShare: 0.3 },
  });
  token = sim.users[0]?.token ?? "";
});
afterAll(async () => {
  await sim.close();
  await (await workspace).cleanup();
});

/** The stored classes against a fresh classification, in a read-only DuckDB of the file. */
async function expectFresh(db: string): Promise<{ labelledUsageRows: number }> {
  const instance = await DuckDBInstance.create(":memory:");
  const connection = await instance.connect();
  try {
    await connection.run(`ATTACH ${quotedString(db)} AS warehouse (READ_ONLY)`);
    await connection.run("USE warehouse");
    return await expectStoredClassesFresh(connection);
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

test("nightly runs keep every call's stored class and the usage grains equal to ones made from scratch", async () => {
  const { db, out } = await workspace;
  const flags: ExportFlags = { db, out, operations: false, lookback: "3d" };
  expect((await exportOnce({ baseUrl: sim.url, token, flags })).exitCode).toBe(0);
  await expectFresh(db);
  let nightsWithoutNewInvoice = 0;
  // Nights inside June, then across July 1st, whose invoice bills June.
  for (let night = 0; night < 25; night += 1) {
    sim.clock.advance(DAY_MS);
    const before = await queryDb(db, "SELECT classified_invoices FROM internal.export_state");
    const run = await exportOnce({ baseUrl: sim.url, token, flags });
    expect(run.exitCode).toBe(0);
    const after = await queryDb(db, "SELECT classified_invoices FROM internal.export_state");
    if (before[0]?.classified_invoices === after[0]?.classified_invoices) nightsWithoutNewInvoice += 1;
    expect(await queryDb(db, "SELECT count(*)::INTEGER AS n FROM internal.stale_class_days")).toEqual([
      { n: 0 },
    ]);
    const { labelledUsageRows } = await expectFresh(db);
    // The simulated user's tokens are listed with labels: the usage rows' labels were compared.
    expect(labelledUsageRows).toBeGreaterThan(0);
  }
  // Most nights changed calls and no invoice: the days marked stale were what was classified.
  expect(nightsWithoutNewInvoice).toBeGreaterThan(15);
  const classes = await queryDb(
    db,
    "SELECT billing_class, count(*)::INTEGER AS n FROM api_calls WHERE price_usd IS NOT NULL GROUP BY 1 ORDER BY 1",
  );
  expect(classes.map((row) => row.billing_class)).toEqual(
    expect.arrayContaining(["awaiting_invoice", "invoiced"]),
  );
});

test("a day marked stale but never classified (a run killed first) is classified by the next run", async () => {
  const { db, out } = await workspace;
  // As a killed run leaves it: a call changed and its day marked, the classes not yet stored.
  await writeDb(
    db,
    `UPDATE api_calls SET billing_class = 'unexplained', billing_reason = 'item_not_on_any_line'
       WHERE id = (SELECT min(id) FROM api_calls WHERE billing_class = 'invoiced');
     INSERT INTO internal.stale_class_days SELECT DISTINCT created_day FROM api_calls
       WHERE billing_class = 'unexplained' AND billing_reason = 'item_not_on_any_line'
       EXCEPT SELECT day FROM internal.stale_class_days;`,
  );
  sim.clock.advance(DAY_MS);
  expect(
    (await exportOnce({ baseUrl: sim.url, token, flags: { db, out, operations: false } })).exitCode,
  ).toBe(0);
  await expectFresh(db);
});

test("a classification left undone (an upgrade stopped half-way) is finished by the next open for writing", async () => {
  const { db } = await workspace;
  // As an older version's database, or an upgrade that ran out of memory half-way, leaves it:
  // classes and rollups missing, no completed classification recorded.
  await writeDb(
    db,
    `UPDATE api_calls SET billing_class = NULL, billing_reason = NULL, billing_invoice_id = NULL
       WHERE created_day >= (SELECT min(created_day) + 10 FROM api_calls);
     DELETE FROM call_grains WHERE day >= (SELECT min(created_day) + 10 FROM api_calls);
     UPDATE internal.export_state SET classified_invoices = NULL;`,
  );
  // The next open for writing (an export's, or check's when it records alerts) classifies first.
  const warehouse = await openWarehouse(db);
  warehouse.close();
  const [state] = await queryDb(
    db,
    "SELECT classified_invoices IS NOT NULL AS recorded FROM internal.export_state",
  );
  expect(state?.recorded).toBe(true);
  await expectFresh(db);
});

test("classified in batches of a few days, the classes and grains are those of one classification", async () => {
  const { db } = await workspace;
  await writeDb(
    db,
    `UPDATE api_calls SET billing_class = NULL, billing_reason = NULL, billing_invoice_id = NULL;
     DELETE FROM usage_grains;
     DELETE FROM call_grains;`,
  );
  const warehouse = await openWarehouse(db);
  try {
    // About a hundred calls a batch: batches of a few days, one of them across a month's end.
    const stored = await storeCallClasses(warehouse.connection, { all: true, batchCalls: 100 });
    expect(stored.changed).toBeGreaterThan(1000);
  } finally {
    warehouse.close();
  }
  await expectFresh(db);
});
