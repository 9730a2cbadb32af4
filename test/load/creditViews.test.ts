import { expect, test } from "vitest";
import type { Warehouse } from "../../src/load/database.js";
import { deriveCallColumns } from "../helpers/derivedCallColumns.js";
import { withTempWarehouse } from "../helpers/exportHarness.js";
import { micros } from "./billingBook.js";

/**
 * The definitions of credit_burn and credit_runway (sql/views/credits.sql) on hand-made snapshots:
 * what counts as burn, what does not, and when there is no run-out date.
 */

interface Snapshot {
  run: string;
  at: string;
  monthly: string;
  stable: string;
  refresh: string | null;

  /** The plan's monthly allowance in USD, as subscription_details gives it; absent when not given. */
  allowance?: string;
}

/** Counts are seconds at $1/120 (Zoo's per-second billing): 120 credits to the dollar. */
function seconds(usd: string): string {
  return String((micros(usd) * 120n) / 1_000_000n);
}

async function insert(warehouse: Warehouse, snapshots: readonly Snapshot[]): Promise<void> {
  for (const s of snapshots) {
    await warehouse.connection.run(
      `INSERT INTO balance_snapshots (run_id, taken_at, scope, created_at, updated_at,
         monthly_api_credits_remaining, monthly_api_credits_remaining_monetary_value, monthly_api_credits_refresh_at,
         stable_api_credits_remaining, stable_api_credits_remaining_monetary_value, subscription_details)
       VALUES ($run, $at::TIMESTAMPTZ, 'user', $at::TIMESTAMPTZ, $at::TIMESTAMPTZ, $monthlyCount::UBIGINT,
         $monthly::DECIMAL(18, 6), $refresh::TIMESTAMPTZ, $stableCount::UBIGINT, $stable::DECIMAL(18, 6),
         $details::JSON)`,
      {
        run: s.run,
        at: s.at,
        monthly: s.monthly,
        stable: s.stable,
        refresh: s.refresh,
        monthlyCount: seconds(s.monthly),
        stableCount: seconds(s.stable),
        details:
          s.allowance === undefined
            ? null
            : `{"modeling_app": {"monthly_pay_as_you_go_api_credits_monetary_value": ${s.allowance}}}`,
      },
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
      // Monthly credits are left at its end, so the stable ones were not drawn on: the grant is no
      // burn, and what the monthly ones lost (nothing) is the pair's spend.
      { run_id: "e", counted: true, consumed: "0.000000", burn: "0.000000" },
    ]);
    // 3.5 over 2.5 days = 1.4 per day. The 18.5 monthly are spent before the refresh on 12-01, so
    // nothing expires; no allowance is known, so no month brings more: 618.5 last 441.8 days.
    expect(await rows(warehouse, RUNWAY_SQL)).toEqual([
      { burn_source: "snapshots", pairs: 3, burn: "1.400000", runway_days: 441.8, runs_out_on: "2028-01-18" },
    ]);
  });
});

test("snapshots minutes apart are no rate: the calls' spend is the burn until the pairs span half a day", async () => {
  await withTempWarehouse(async (warehouse) => {
    // The calls: 3 USD a day over the 10 days before the snapshots.
    for (let day = 0; day < 10; day++) {
      await warehouse.connection.run(
        `INSERT INTO api_calls (id, user_id, method, created_at, updated_at, price_usd, first_seen_run_id, last_changed_run_id)
         VALUES (uuid(), uuid(), 'POST', $at::TIMESTAMPTZ, $at::TIMESTAMPTZ, 3, 'r', 'r')`,
        { at: new Date(Date.UTC(2026, 9, 21 + day)).toISOString() },
      );
      await deriveCallColumns(warehouse.connection);
    }
    const refresh = "2026-12-01T00:00:00Z";
    // 1 USD consumed in 10 minutes: 144 USD a day if it were a rate.
    await insert(warehouse, [
      { run: "a", at: "2026-10-31T00:00:00Z", monthly: "0", stable: "100", refresh },
      { run: "b", at: "2026-10-31T00:10:00Z", monthly: "0", stable: "99", refresh },
    ]);
    expect(
      await rows(warehouse, "SELECT burn_source, burn_usd_per_day::VARCHAR AS burn FROM credit_runway"),
      // 30 USD from the first call to the latest snapshot, 10 days and 10 minutes, rounded down.
    ).toEqual([{ burn_source: "api_calls", burn: "2.997918" }]);
    // Half a day later the pairs span enough to be a rate: 4 USD in 12 hours and 10 minutes.
    await insert(warehouse, [{ run: "c", at: "2026-10-31T12:10:00Z", monthly: "0", stable: "96", refresh }]);
    expect(
      await rows(warehouse, "SELECT burn_source, burn_usd_per_day::VARCHAR AS burn FROM credit_runway"),
    ).toEqual([{ burn_source: "snapshots", burn: "7.890410" }]);
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

test("the ledger's rule: monthly credits left at a refresh expire, the allowance comes back each month", async () => {
  await withTempWarehouse(async (warehouse) => {
    // 10 a day; 1,000 monthly credits expire in 2 days, only 20 of them spent by then.
    await insert(warehouse, [
      {
        run: "a",
        at: "2026-10-28T00:00:00Z",
        monthly: "1010",
        stable: "10",
        refresh: "2026-11-01T00:00:00Z",
      },
      { run: "b", at: "2026-10-30T00:00:00Z", monthly: "990", stable: "10", refresh: "2026-11-01T00:00:00Z" },
    ]);
    // Counts and monetary values both: 20 USD is 2,400 seconds of credit.
    expect(
      await rows(
        warehouse,
        "SELECT consumed_usd::VARCHAR AS usd, consumed_credits::VARCHAR AS credits FROM credit_burn",
      ),
    ).toEqual([{ usd: "20.000000", credits: "2400" }]);
    // No allowance known: the 970 left at the refresh expire, the 10 stable last one more day.
    expect(await rows(warehouse, RUNWAY_SQL)).toEqual([
      { burn_source: "snapshots", pairs: 1, burn: "10.000000", runway_days: 3, runs_out_on: "2026-11-02" },
    ]);
  });
});

test("an allowance that covers a month's burn: the credits never run out", async () => {
  await withTempWarehouse(async (warehouse) => {
    await insert(warehouse, [
      {
        run: "a",
        at: "2026-10-10T00:00:00Z",
        monthly: "20",
        stable: "5",
        refresh: "2026-11-01T00:00:00Z",
        allowance: "20",
      },
      {
        run: "b",
        at: "2026-10-20T00:00:00Z",
        monthly: "15",
        stable: "5",
        refresh: "2026-11-01T00:00:00Z",
        allowance: "20",
      },
    ]);
    // 0.5 a day is 15.5 in the longest month, under the 20 each month brings.
    expect(await rows(warehouse, RUNWAY_SQL)).toEqual([
      { burn_source: "snapshots", pairs: 1, burn: "0.500000", runway_days: null, runs_out_on: null },
    ]);
    // At 1 a day: 12 days to the refresh take the 10 monthly and 2 stable; November brings 20 and the
    // 3 stable left, gone 23 days in. Not (10 + 5) / 1 = 15 days: a month's allowance comes back.
    await warehouse.connection.run("DELETE FROM balance_snapshots");
    await insert(warehouse, [
      {
        run: "c",
        at: "2026-10-10T00:00:00Z",
        monthly: "20",
        stable: "5",
        refresh: "2026-11-01T00:00:00Z",
        allowance: "20",
      },
      {
        run: "d",
        at: "2026-10-20T00:00:00Z",
        monthly: "10",
        stable: "5",
        refresh: "2026-11-01T00:00:00Z",
        allowance: "20",
      },
    ]);
    expect(await rows(warehouse, RUNWAY_SQL)).toEqual([
      { burn_source: "snapshots", pairs: 1, burn: "1.000000", runway_days: 35, runs_out_on: "2026-11-24" },
    ]);
  });
});
