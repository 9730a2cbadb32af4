import { expect, test } from "vitest";
import { durationUnitWarning } from "../../src/load/durationEvidence.js";
import { withTempWarehouse } from "../helpers/exportHarness.js";

/** Calls created `daysAgo` days before 2026-11-01, each billed for 2 s with duration in `rawPerUs`. */
const INSERT_CALLS = (rows: number, daysAgo: number, rawPerUs: number) => `
  INSERT INTO api_calls (id, user_id, method, created_at, started_at, completed_at, updated_at,
                         duration_raw, first_seen_run_id, last_changed_run_id)
  SELECT uuid(), uuid(), 'GET', t, t, t + INTERVAL 2 SECOND, t, (2000000 * ${rawPerUs})::BIGINT, 'r', 'r'
  FROM (SELECT TIMESTAMPTZ '2026-11-01 00:00:00+00' - INTERVAL (${daysAgo}) DAY + INTERVAL (range) SECOND AS t
        FROM range(${rows}))`;

test("the duration unit is judged on the last 7 days of calls, and a mismatch is a warning", () =>
  withTempWarehouse(async (warehouse) => {
    // Old history in milliseconds, the recent week in nanoseconds: the API changed its unit.
    await warehouse.connection.run(INSERT_CALLS(5000, 60, 0.001));
    await warehouse.connection.run(INSERT_CALLS(300, 3, 1000));
    const evidence = await warehouse.connection.runAndReadAll(
      "SELECT calls_compared::INTEGER, median_raw_per_us, implied_unit FROM duration_unit_evidence",
    );
    expect(evidence.getRows()[0]).toEqual([300, 1000, "ns"]);
    expect(await durationUnitWarning(warehouse, "ns")).toBeUndefined();
    expect(await durationUnitWarning(warehouse, "ms")).toMatch(
      /duration looks like unit "ns" \(median 1000 raw units per microsecond .* over 300 calls\), but --duration-unit is "ms"/,
    );
  }));

test("fewer than 100 recent calls say nothing about the unit, however many older ones disagree", () =>
  withTempWarehouse(async (warehouse) => {
    await warehouse.connection.run(INSERT_CALLS(5000, 60, 0.001));
    await warehouse.connection.run(INSERT_CALLS(99, 1, 1000));
    expect(await durationUnitWarning(warehouse, "ns")).toBeUndefined();
  }));
