import { expect, test } from "vitest";
import type { Warehouse } from "../../src/load/database.js";
import { withTempWarehouse } from "../helpers/exportHarness.js";

/**
 * The definitions of credit_burn and credit_runway (sql/credit_views.sql) on hand-made snapshots:
 * what counts as burn, what does not, and when there is no run-out date.
 */

interface Snapshot {
  run: string;
  at: string;
  monthly: string;
  stable: string;
  refresh: string | null;
}

async function insert(warehouse: Warehouse, snapshots: readonly Snapshot[]): Promise<void> {
  for (const s of snapshots) {
    await warehouse.connection.run(
      `INSERT INTO balance_snapshots (run_id, taken_at, scope, created_at, updated_at,
         monthly_api_credits_remaining, monthly_api_credits_remaining_monetary_value, monthly_api_credits_refresh_at,
         stable_api_credits_remaining, stable_api_credits_remaining_monetary_value)
       VALUES ($run, $at::TIMESTAMPTZ, 'user', $at::TIMESTAMPTZ, $at::TIMESTAMPTZ, 0, $monthly::DECIMAL(18, 6),
         $refresh::TIMESTAMPTZ, 0, $stable::DECIMAL(18, 6))`,
      { run: s.run, at: s.at, monthly: s.monthly, stable: s.stable, refresh: s.refresh },
    );
  }
}

async function rows(warehouse: Warehouse, sql: string): Promise<Record<string, unknown>[]> {
  const reader = await warehouse.connection.runAndReadAll(sql);
  return reader.getRowObjectsJS() as Record<string, unknown>[];
}

const BURN_SQL =
  "SELECT run_id, counted, consumed_usd::VARCHAR AS consumed, burn_usd_per_day::VARCHAR AS burn FROM credit_burn";
const RUNWAY_SQL = `SELECT burn_source, burn_pairs::INTEGER AS pairs, burn_usd_per_day::VARCHAR AS burn,
  runway_days, runs_out_on::VARCHAR AS runs_out_on FROM credit_runway`;

test("a monthly refresh and a grant are not burn; the counted pairs make the current rate", async () => {
  await withTempWarehouse(async (warehouse) => {
    await insert(warehouse, [
      { run: "a", at: "2026-10-30T00:00:00Z", monthly: "5", stable: "100", refresh: "2026-11-01T00:00:00Z" },
      // 2 consumed in a day.
      { run: "b", at: "2026-10-31T00:00:00Z", monthly: "3", stable: "100", refresh: "2026-11-01T00:00:00Z" },
      // The month refreshed: the monthly value rose and the refresh moved.
      { run: "c", at: "2026-11-01T12:00:00Z", monthly: "20", stable: "100", refresh: "2026-12-01T00:00:00Z" },
      // 1.5 consumed in half a day.
      {
        run: "d",
        at: "2026-11-02T00:00:00Z",
        monthly: "18.5",
        stable: "100",
        refresh: "2026-12-01T00:00:00Z",
      },
      // Stable credits granted: the total rose.
      {
        run: "e",
        at: "2026-11-03T00:00:00Z",
        monthly: "18.5",
        stable: "600",
        refresh: "2026-12-01T00:00:00Z",
      },
    ]);
    expect(await rows(warehouse, BURN_SQL)).toEqual([
      { run_id: "b", counted: true, consumed: "2.000000", burn: "2.000000" },
      { run_id: "c", counted: false, consumed: null, burn: null },
      { run_id: "d", counted: true, consumed: "1.500000", burn: "3.000000" },
      { run_id: "e", counted: false, consumed: null, burn: null },
    ]);
    // 3.5 over 1.5 days = 2.333333 per day (rounded down); 618.5 left lasts 265.07 days.
    expect(await rows(warehouse, RUNWAY_SQL)).toEqual([
      { burn_source: "snapshots", pairs: 2, burn: "2.333333", runway_days: 265.1, runs_out_on: "2027-07-26" },
    ]);
  });
});

test("no burn: no run-out date; a small burn on a huge balance: none within 100 years", async () => {
  await withTempWarehouse(async (warehouse) => {
    await insert(warehouse, [
      { run: "a", at: "2026-10-01T00:00:00Z", monthly: "0", stable: "50", refresh: null },
      { run: "b", at: "2026-10-02T00:00:00Z", monthly: "0", stable: "50", refresh: null },
    ]);
    expect(await rows(warehouse, RUNWAY_SQL)).toEqual([
      { burn_source: "snapshots", pairs: 1, burn: "0.000000", runway_days: null, runs_out_on: null },
    ]);
    await insert(warehouse, [
      { run: "c", at: "2026-10-03T00:00:00Z", monthly: "0", stable: "49.999999", refresh: null },
      { run: "d", at: "2026-10-04T00:00:00Z", monthly: "999999999999", stable: "0", refresh: null },
      { run: "e", at: "2026-10-05T00:00:00Z", monthly: "999999999998.99", stable: "0", refresh: null },
    ]);
    // (0 + 0.000001 + 0.01) over 3 counted days: 0.003333 a day, for about 3e14 days.
    const [runway] = await rows(warehouse, RUNWAY_SQL);
    expect(runway?.burn).toBe("0.003333");
    expect(runway?.runs_out_on).toBeNull();
    expect(Number(runway?.runway_days)).toBeGreaterThan(100 * 366);
  });
});

test("credits used up: a pair that starts at zero is no burn; the runway is 0, out by the snapshot", async () => {
  await withTempWarehouse(async (warehouse) => {
    await insert(warehouse, [
      // 10 consumed in a day, down to nothing.
      { run: "a", at: "2026-10-01T00:00:00Z", monthly: "0", stable: "10", refresh: null },
      { run: "b", at: "2026-10-02T00:00:00Z", monthly: "0", stable: "0", refresh: null },
      // Nothing left to consume: the pair says nothing about the rate.
      { run: "c", at: "2026-10-05T06:00:00Z", monthly: "0", stable: "0", refresh: null },
    ]);
    expect(await rows(warehouse, BURN_SQL)).toEqual([
      { run_id: "b", counted: true, consumed: "10.000000", burn: "10.000000" },
      { run_id: "c", counted: false, consumed: null, burn: null },
    ]);
    expect(await rows(warehouse, RUNWAY_SQL)).toEqual([
      { burn_source: "snapshots", pairs: 1, burn: "10.000000", runway_days: 0, runs_out_on: "2026-10-05" },
    ]);
    // Without a measurable burn at all, credits at zero are still used up, not "never run out".
    await warehouse.connection.run("DELETE FROM balance_snapshots WHERE run_id <> 'c'");
    expect(await rows(warehouse, RUNWAY_SQL)).toEqual([
      { burn_source: "api_calls", pairs: 0, burn: "0.000000", runway_days: 0, runs_out_on: "2026-10-05" },
    ]);
  });
});
