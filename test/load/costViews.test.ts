import { describe, expect, test } from "vitest";
import type { Warehouse } from "../../src/load/database.js";
import { deriveCallColumns } from "../helpers/derivedCallColumns.js";
import { withTempWarehouse } from "../helpers/exportHarness.js";

/**
 * The daily and monthly cost views, with and without the exporter's own calls, on calls chosen for
 * their edges: two months, own calls by User-Agent and by id, a day of own calls only, pending
 * billing, missing and negative prices. Each view is checked against its meaning written out as
 * one plain query, column types included, and against figures worked out by hand.
 */

let sequence = 0;
async function addCall(
  warehouse: Warehouse,
  call: { at: string; price: string | null; agent?: string; pending?: boolean; own?: boolean },
): Promise<void> {
  sequence += 1;
  const id = `0198c2a4-6a7b-7cc4-9d3e-${String(sequence).padStart(12, "0")}`;
  await warehouse.connection.run(
    `INSERT INTO api_calls BY NAME
     SELECT $id::UUID AS id, $id::UUID AS user_id, 'POST' AS method, $at::TIMESTAMPTZ AS created_at,
       $at::TIMESTAMPTZ AS updated_at, CASE WHEN $pending THEN NULL ELSE $at::TIMESTAMPTZ END AS completed_at,
       $price::DECIMAL(18, 6) AS price_usd, $agent AS user_agent, 'run' AS first_seen_run_id,
       'run' AS last_changed_run_id`,
    {
      id,
      at: call.at,
      price: call.price,
      agent: call.agent ?? "python-requests/2.32.3",
      pending: !!call.pending,
    },
  );
  await deriveCallColumns(warehouse.connection);
  if (call.own)
    await warehouse.connection.run("INSERT INTO internal.own_calls (id, run_id) VALUES ($id::UUID, 'run')", {
      id,
    });
}

async function addCalls(warehouse: Warehouse): Promise<void> {
  await addCall(warehouse, { at: "2026-01-31T23:59:59.999999Z", price: "1.250000" });
  await addCall(warehouse, { at: "2026-01-31T12:00:00Z", price: "0.000001", agent: "zoo-usage/1.0" });
  await addCall(warehouse, { at: "2026-02-01T00:00:00Z", price: null, pending: true });
  await addCall(warehouse, { at: "2026-02-01T07:00:00+08:00", price: "-0.500000" });
  await addCall(warehouse, { at: "2026-02-02T10:00:00Z", price: "3.000000", own: true });
  await addCall(warehouse, {
    at: "2026-02-02T11:00:00Z",
    price: null,
    agent: "zoo-usage/2.0",
    pending: true,
  });
  await addCall(warehouse, { at: "2026-02-03T10:00:00Z", price: "2.000000", pending: true });
}

const AGGREGATES = `count(*) AS calls, count(price_usd) AS priced_calls,
  count(*) FILTER (WHERE billing_pending) AS pending_calls,
  coalesce(sum(price_usd), 0)::DECIMAL(38, 6) AS cost_usd`;

/** Each view, and what it means as one plain query. */
const MEANINGS: [string, string][] = [
  ["cost_per_day", `SELECT day, ${AGGREGATES} FROM api_calls_enriched GROUP BY day ORDER BY day`],
  ["cost_per_month", `SELECT month, ${AGGREGATES} FROM api_calls_enriched GROUP BY month ORDER BY month`],
  [
    "cost_per_day_excluding_own",
    `SELECT day, ${AGGREGATES} FROM api_calls_enriched WHERE NOT is_own_call GROUP BY day ORDER BY day`,
  ],
  [
    "cost_per_month_excluding_own",
    `SELECT month, ${AGGREGATES} FROM api_calls_enriched WHERE NOT is_own_call GROUP BY month ORDER BY month`,
  ],
];

async function rows(warehouse: Warehouse, sql: string): Promise<unknown[]> {
  return (await warehouse.connection.runAndReadAll(sql)).getRowsJson();
}

describe("the cost views", () => {
  test.each(MEANINGS)("%s holds what it means, with the same column types", async (view, meaning) => {
    await withTempWarehouse(async (warehouse) => {
      await addCalls(warehouse);
      expect(await rows(warehouse, `SELECT * FROM ${view}`)).toEqual(await rows(warehouse, meaning));
      expect(await rows(warehouse, `DESCRIBE ${view}`)).toEqual(await rows(warehouse, `DESCRIBE ${meaning}`));
    });
  });

  test.each(["cost_per_month", "cost_per_month_excluding_own", "own_calls_per_month"])(
    "%s.month is a DATE, the first day of its UTC month",
    async (view) => {
      await withTempWarehouse(async (warehouse) => {
        await addCalls(warehouse);
        const described = await warehouse.connection.runAndReadAll(`DESCRIBE ${view}`);
        const month = described.getRowObjectsJson().find((row) => row.column_name === "month");
        expect(month?.column_type).toBe("DATE");
        const days = await rows(warehouse, `SELECT DISTINCT day(month) FROM ${view}`);
        expect(days).toEqual([["1"]]);
      });
    },
  );

  test("a sum beyond DECIMAL(18,6): two calls at its largest price add up exactly", async () => {
    await withTempWarehouse(async (warehouse) => {
      await addCall(warehouse, { at: "2026-03-01T00:00:00Z", price: "999999999999.999999" });
      await addCall(warehouse, { at: "2026-03-01T01:00:00Z", price: "999999999999.999999" });
      for (const view of ["cost_per_day", "cost_per_month", "cost_per_endpoint"])
        expect(await rows(warehouse, `SELECT cost_usd::VARCHAR FROM ${view}`), view).toEqual([
          ["1999999999999.999998"],
        ]);
    });
  });

  test("figures worked out by hand", async () => {
    await withTempWarehouse(async (warehouse) => {
      await addCalls(warehouse);
      expect(await rows(warehouse, "SELECT * FROM cost_per_day")).toEqual([
        ["2026-01-31", "3", "3", "0", "0.750001"],
        ["2026-02-01", "1", "0", "1", "0.000000"],
        ["2026-02-02", "2", "1", "1", "3.000000"],
        ["2026-02-03", "1", "1", "1", "2.000000"],
      ]);
      expect(await rows(warehouse, "SELECT * FROM cost_per_day_excluding_own")).toEqual([
        ["2026-01-31", "2", "2", "0", "0.750000"],
        ["2026-02-01", "1", "0", "1", "0.000000"],
        ["2026-02-03", "1", "1", "1", "2.000000"],
      ]);
      expect(await rows(warehouse, "SELECT * FROM cost_per_month")).toEqual([
        ["2026-01-01", "3", "3", "0", "0.750001"],
        ["2026-02-01", "4", "2", "3", "5.000000"],
      ]);
      expect(await rows(warehouse, "SELECT * FROM cost_per_month_excluding_own")).toEqual([
        ["2026-01-01", "2", "2", "0", "0.750000"],
        ["2026-02-01", "2", "1", "2", "2.000000"],
      ]);
    });
  });
});
