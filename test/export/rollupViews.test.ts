import { copyFile } from "node:fs/promises";
import { DuckDBInstance, quotedString } from "@duckdb/node-api";
import { afterAll, beforeAll, expect, test } from "vitest";
import { openWarehouse } from "../../src/load/database.js";
import { recordOwnCalls } from "../../src/load/ownCalls.js";
import { type RunningSimulator, startSimulator } from "../../src/sim/index.js";
import { exportOnce, queryDb, tempWorkspace, writeDb } from "../helpers/exportHarness.js";
import {
  columnTypes,
  differing,
  MONTHLY_CALLS,
  ROW_LEVEL_MONTHLY_CALLS,
  ROW_LEVEL_REJECTED_CALLS,
  ROW_LEVEL_VIEWS,
} from "../helpers/rowLevelViews.js";
import { expectStoredClassesFresh } from "../helpers/storedClasses.js";

/**
 * The views that read the calls' rollup (call_grains), and those that match the calls to their
 * tokens once per user, org and last 4, give the rows they gave reading every call, with the same
 * types, on an org's history with late billing, invoices, the exporter's own calls, and calls
 * matched to a token or a service account, ambiguous and unmatched; rejected_calls, which seeks a
 * reject's stored version among its days' calls, leaves out what reading every stored id left out;
 * and the rollup stays equal to one made from scratch when an own call id arrives for a call
 * stored already.
 */
const DAY_MS = 86_400_000;

let sim: RunningSimulator;
let token = "";
const workspace = tempWorkspace();
beforeAll(async () => {
  sim = await startSimulator({
    seed: 47,
    calls: 1500,
    days: 40,
    users: 5,
    now: new Date("2026-06-10T00:00:00Z"),
    lateBilling: { share: 0.3, days: [1, 20], monthEndShare: 0.3 },
    recordOwnTraffic: true,
  });
  token = sim.users.find((user) => user.orgRole === "admin")?.token ?? "";
  const { db, out } = await workspace;
  // Two nights: the second lists the first one's requests as calls (the exporter's own).
  for (let night = 0; night < 2; night++) {
    if (night > 0) sim.clock.advance(DAY_MS);
    const run = await exportOnce({
      baseUrl: sim.url,
      token,
      flags: { db, out, operations: false, scope: "org" },
    });
    expect(run.exitCode).toBe(0);
  }
});
afterAll(async () => {
  await sim.close();
  await (await workspace).cleanup();
});

test.each(Object.entries(ROW_LEVEL_VIEWS))(
  "%s gives the rows and types it gave reading every call",
  async (view, rowLevel) => {
    const { db } = await workspace;
    const [{ n } = {}] = await queryDb(db, `SELECT count(*)::INTEGER AS n FROM ${view}`);
    expect(n).toBeGreaterThan(0);
    expect(await columnTypes(db, `SELECT * FROM ${view}`)).toEqual(await columnTypes(db, rowLevel));
    expect(await differing(db, `SELECT * FROM ${view}`, rowLevel)).toEqual([]);
  },
);

test("the calls match tokens and service accounts, ambiguously and not at all", async () => {
  const { db } = await workspace;
  const kinds = await queryDb(
    db,
    "SELECT DISTINCT match_status || ' ' || coalesce(token_kind, '-') AS kind FROM call_token_match ORDER BY kind",
  );
  expect(kinds.map((row) => row.kind)).toEqual([
    "ambiguous -",
    "matched api_token",
    "matched service_account",
    "unmatched -",
  ]);
});

test("monthly_reconciliation's calls and classes are the ones every call gives", async () => {
  const { db } = await workspace;
  const months = await queryDb(db, MONTHLY_CALLS);
  expect(months.length).toBeGreaterThan(1);
  // The shapes the comparison is about are there: calls invoiced and calls awaiting an invoice.
  expect(months.some((row) => Number(row.invoiced_calls) > 0)).toBe(true);
  expect(months.some((row) => Number(row.awaiting_calls) > 0)).toBe(true);
  expect(await differing(db, MONTHLY_CALLS, ROW_LEVEL_MONTHLY_CALLS)).toEqual([]);
});

test("the exporter's own calls are in the rollup, also when their id is recorded after the call", async () => {
  const { db } = await workspace;
  const [{ own } = {}] = await queryDb(
    db,
    "SELECT coalesce(sum(own_calls), 0)::INTEGER AS own FROM own_calls_per_month",
  );
  expect(own).toBeGreaterThan(0);
  // An id received for a call stored already (here, the newest call of the account's own traffic).
  const [call] = await queryDb(
    db,
    `SELECT id::VARCHAR AS id FROM api_calls_enriched WHERE NOT is_own_call ORDER BY created_at DESC LIMIT 1`,
  );
  const warehouse = await openWarehouse(db);
  try {
    await recordOwnCalls(warehouse, "run-recorded-late", [String(call?.id)]);
  } finally {
    warehouse.close();
  }
  const [{ after } = {}] = await queryDb(
    db,
    "SELECT coalesce(sum(own_calls), 0)::INTEGER AS after FROM own_calls_per_month",
  );
  expect(after).toBe(Number(own) + 1);
  expect(
    await differing(db, "SELECT * FROM own_calls_per_month", ROW_LEVEL_VIEWS.own_calls_per_month ?? ""),
  ).toEqual([]);
});

test("the stored rollup equals one made from the calls", async () => {
  const { db } = await workspace;
  const instance = await DuckDBInstance.create(":memory:");
  const connection = await instance.connect();
  try {
    await connection.run(`ATTACH ${quotedString(db)} AS warehouse (READ_ONLY)`);
    await connection.run("USE warehouse");
    await expectStoredClassesFresh(connection);
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
});

test("rejected_calls leaves out the rejects stored since, as reading every stored id did", async () => {
  const { db } = await workspace;
  const copy = `${db}.rejects.duckdb`;
  await copyFile(db, copy);
  const reject = (id: string, fields: string) =>
    `SELECT 'run-r', TIMESTAMPTZ '2026-06-11 00:00:00+00', ${id}, 'price: not a number', json_object(${fields})::VARCHAR`;
  await writeDb(
    copy,
    `INSERT INTO rejects (run_id, rejected_at, record_id, reason, raw_json)
     -- Calls stored since: the oldest with their created_at, the newest with one that does not read as a time.
     ${reject("id::VARCHAR", "'id', id::VARCHAR, 'method', method, 'created_at', strftime(created_at, '%Y-%m-%dT%H:%M:%S.%fZ')")}
       FROM (SELECT id, method, created_at FROM api_calls ORDER BY created_at LIMIT 2)
     UNION ALL
     ${reject("id::VARCHAR", "'id', id::VARCHAR, 'method', method, 'created_at', 'soon'")}
       FROM (SELECT id, method FROM api_calls ORDER BY created_at DESC LIMIT 2)
     -- Calls never stored: a new id (on a day with stored calls), and no id at all.
     UNION ALL
     ${reject("'8d0e6f2a-4c7b-4d1e-9a3f-2b5c6d7e8f90'", "'method', 'GET', 'created_at', '2026-05-20T10:00:00Z'")}
     UNION ALL
     ${reject("NULL", "'method', 'POST', 'created_at', '2026-05-21T10:00:00Z'")}
     -- A time no call has: its days are sought like any other's.
     UNION ALL
     ${reject("'3a7c9e1b-5d2f-4a6b-8c0d-1e2f3a4b5c6d'", "'method', 'GET', 'created_at', '9999-12-31T23:59:59Z'")}`,
  );
  const rejected = await queryDb(copy, "SELECT record_id FROM rejected_calls ORDER BY created_at");
  expect(rejected).toEqual([
    { record_id: "8d0e6f2a-4c7b-4d1e-9a3f-2b5c6d7e8f90" },
    { record_id: null },
    { record_id: "3a7c9e1b-5d2f-4a6b-8c0d-1e2f3a4b5c6d" },
  ]);
  expect(await differing(copy, "SELECT * FROM rejected_calls", ROW_LEVEL_REJECTED_CALLS)).toEqual([]);
});
