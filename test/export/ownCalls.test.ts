import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { exporterUserAgent } from "../../src/api/userAgent.js";
import { openWarehouse } from "../../src/load/database.js";
import { readReportFigures } from "../../src/report/readFigures.js";
import { renderTerminal } from "../../src/report/terminal.js";
import { type RunningSimulator, startSimulator } from "../../src/sim/index.js";
import { exportOnce, queryDb, tempWorkspace } from "../helpers/exportHarness.js";

const DAY_MS = 86_400_000;

describe("the exporter's own calls", () => {
  let sim: RunningSimulator;
  let token: string;
  const workspace = tempWorkspace();

  beforeAll(async () => {
    sim = await startSimulator({ seed: 21, calls: 1500, days: 3, users: 2, recordOwnTraffic: true });
    token = sim.users[0]?.token ?? "";
  });
  afterAll(async () => {
    await sim.close();
    await (await workspace).cleanup();
  });

  test("a second export lists the first one's requests, recognises them and fetches nothing for them", async () => {
    const { db, out } = await workspace;
    const flags = { db, out, limit: 200 };
    const first = await exportOnce({ baseUrl: sim.url, token, flags });
    expect(first.exitCode).toBe(0);
    const firstIds = await queryDb(db, "SELECT id::VARCHAR AS id, run_id FROM internal.own_calls");
    // Every answer of the first run (a 404 for a missing operation too) named the call it became.
    expect(firstIds).toHaveLength(first.summary.requests);
    expect(new Set(firstIds.map((row) => row.run_id)).size).toBe(1);
    // Nothing of the first run is in the listing yet: the calls are made at the clock's moment.
    const before = await queryDb(
      db,
      "SELECT count(*)::INTEGER AS n FROM api_calls WHERE user_agent LIKE 'zoo-usage/%'",
    );
    expect(before[0]?.n).toBe(0);

    sim.clock.advance(DAY_MS);
    const second = await exportOnce({ baseUrl: sim.url, token, flags });
    expect(second.exitCode).toBe(0);

    const own = await queryDb(
      db,
      `SELECT c.id::VARCHAR AS id, c.method, c.endpoint, c.status_code, c.user_agent, c.price_usd::VARCHAR AS price
       FROM api_calls AS c JOIN internal.own_calls AS o USING (id) WHERE o.run_id = '${String(firstIds[0]?.run_id)}'`,
    );
    // Every call id the first run received came back as a call, with the exporter's user agent.
    expect(new Set(own.map((row) => row.id))).toEqual(new Set(firstIds.map((row) => row.id)));
    for (const row of own) {
      expect(row).toMatchObject({
        method: "GET",
        user_agent: exporterUserAgent(),
        price: "0.000000",
      });
      expect([200, 404]).toContain(row.status_code);
      expect(String(row.endpoint)).toMatch(
        /^\/(user\/api-calls|user\/api-tokens|user\/payment\/balance|user\/payment\/invoices|async\/operations\/[0-9a-f-]{36})$/,
      );
    }
    const listings = own.filter((row) => row.endpoint === "/user/api-calls").length;
    const balanceReads = own.filter((row) => row.endpoint === "/user/payment/balance").length;
    expect(balanceReads).toBe(1);
    const invoiceListings = own.filter((row) => row.endpoint === "/user/payment/invoices").length;
    expect(invoiceListings).toBeGreaterThanOrEqual(1);
    const operationGets = own.filter((row) => String(row.endpoint).startsWith("/async/operations/")).length;
    expect(listings).toBeGreaterThan(1);
    expect(operationGets).toBe(first.summary.operations?.fetched);

    // No operation was asked for about an own call.
    const fetchedForOwn = await queryDb(
      db,
      "SELECT count(*)::INTEGER AS n FROM async_operations WHERE id IN (SELECT id FROM internal.own_calls)",
    );
    expect(fetchedForOwn[0]?.n).toBe(0);

    // The views: with, without, and the split, which add up.
    const [split] = await queryDb(
      db,
      `SELECT
         (SELECT count(*) FROM api_calls)::INTEGER AS total,
         (SELECT count(*) FROM api_calls_enriched WHERE is_own_call)::INTEGER AS own,
         (SELECT count(*) FROM api_calls_excluding_own)::INTEGER AS others,
         (SELECT sum(own_calls) FROM own_calls_per_month)::INTEGER AS own_by_month,
         (SELECT sum(cost_usd) FROM cost_per_month)::VARCHAR AS cost,
         (SELECT sum(cost_usd) FROM cost_per_month_excluding_own)::VARCHAR AS cost_without,
         (SELECT sum(cost_excluding_own_usd) + sum(own_cost_usd) FROM own_calls_per_month)::VARCHAR AS cost_split,
         (SELECT sum(calls) FROM cost_per_day_excluding_own)::INTEGER AS others_by_day`,
    );
    expect(split?.own).toBe(own.length);
    expect(split?.others).toBe(Number(split?.total) - own.length);
    expect(split?.own_by_month).toBe(own.length);
    expect(split?.others_by_day).toBe(split?.others);
    // Reads are free: excluding them changes the count, not the spend.
    expect(split?.cost_without).toBe(split?.cost);
    expect(split?.cost_split).toBe(split?.cost);

    // The report shows the share.
    const warehouse = await openWarehouse(db, { readOnly: true });
    try {
      const figures = await readReportFigures(warehouse, {
        from: null,
        to: null,
        top: 5,
        generatedAt: new Date(),
      });
      expect(figures.own_calls).toEqual({
        calls: own.length,
        cost_usd: "0.000000",
        cost_usd_excluding_own: figures.totals.cost_usd,
      });
      expect(renderTerminal(figures)).toContain(`own calls ${own.length} calls made by zoo-usage itself`);
    } finally {
      warehouse.close();
    }

    // The second run's ids are kept for the third night.
    const secondIds = await queryDb(db, "SELECT count(*)::INTEGER AS n FROM internal.own_calls");
    expect(secondIds[0]?.n).toBe(first.summary.requests + second.summary.requests);
  });
});
