import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { openWarehouse } from "../../src/load/database.js";
import type { ReportFigures } from "../../src/report/figures.js";
import { readReportFigures } from "../../src/report/readFigures.js";
import { queryDb } from "../helpers/exportHarness.js";
import { buildWarehouse, copyDb, DROP_OPERATION_VIEWS, editDb, OPERATION_VIEW_FIXTURES } from "./fixtures.js";

const TOP = 5;

/** Exact micro-dollars of a decimal string, to add figures up without a float. */
function micros(decimal: string): bigint {
  const [integer = "0", fraction = ""] = decimal.split(".");
  return BigInt(integer) * 1_000_000n + BigInt(fraction.padEnd(6, "0").slice(0, 6));
}

async function figuresOf(
  db: string,
  from: string | null,
  to: string | null,
  showEmail = false,
): Promise<ReportFigures> {
  const warehouse = await openWarehouse(db, { readOnly: true });
  try {
    return await readReportFigures(warehouse, { from, to, top: TOP, generatedAt: new Date(0), showEmail });
  } finally {
    warehouse.close();
  }
}

describe("report figures read from a warehouse the real pipeline built", () => {
  let fixture: Awaited<ReturnType<typeof buildWarehouse>>;
  let withoutOperations: string;
  let withOperations: string;

  beforeAll(async () => {
    fixture = await buildWarehouse({ seed: 11, calls: 4000, days: 45, priceMode: "adversarial" });
    // Two rejects, as an export would record them, on two UTC days.
    await editDb(fixture.db, [
      `INSERT INTO rejects VALUES
        ('run-a', TIMESTAMPTZ '2026-10-20 23:59:59+00', 'r1', 'price has more than 6 decimal places', '{}'),
        ('run-b', TIMESTAMPTZ '2026-10-21 00:00:00+00', 'r2', 'price has more than 6 decimal places', '{}')`,
    ]);
    withoutOperations = await copyDb(fixture.db, "without_operations.duckdb");
    await editDb(withoutOperations, DROP_OPERATION_VIEWS);
    withOperations = await copyDb(fixture.db, "with_operations.duckdb");
    await editDb(withOperations, OPERATION_VIEW_FIXTURES);
  });
  afterAll(() => fixture.cleanup());

  test("without a period: every figure equals the views, to the micro-dollar", async () => {
    const figures = await figuresOf(withoutOperations, null, null);
    const days = await queryDb(
      withoutOperations,
      "SELECT strftime(day, '%Y-%m-%d') AS day, calls, priced_calls, pending_calls, cost_usd::VARCHAR AS cost FROM cost_per_day ORDER BY day",
    );
    expect(days.length).toBeGreaterThan(40);
    expect(figures.days.map((d) => [d.day, d.calls, d.priced_calls, d.pending_calls, d.cost_usd])).toEqual(
      days.map((d) => [d.day, Number(d.calls), Number(d.priced_calls), Number(d.pending_calls), d.cost]),
    );
    const [total] = await queryDb(
      withoutOperations,
      "SELECT sum(cost_usd)::VARCHAR AS cost, sum(calls) AS calls, min(day)::VARCHAR AS first, max(day)::VARCHAR AS last FROM cost_per_day",
    );
    expect(figures.totals.cost_usd).toBe(total?.cost);
    expect(figures.totals.calls).toBe(Number(total?.calls));
    expect([figures.period.first_day, figures.period.last_day]).toEqual([total?.first, total?.last]);
    // The days add up to the total exactly (no float anywhere on the way).
    expect(figures.days.reduce((sum, d) => sum + micros(d.cost_usd), 0n)).toBe(
      micros(figures.totals.cost_usd),
    );

    const endpoints = await queryDb(
      withoutOperations,
      "SELECT endpoint_template, calls, priced_calls, cost_usd::VARCHAR AS cost FROM cost_per_endpoint",
    );
    expect(
      figures.endpoints.top.map((e) => [e.endpoint_template, e.calls, e.priced_calls, e.cost_usd]),
    ).toEqual(
      endpoints
        .slice(0, TOP)
        .map((e) => [e.endpoint_template, Number(e.calls), Number(e.priced_calls), e.cost]),
    );
    expect(figures.endpoints.templates).toBe(endpoints.length);
    const rest = endpoints.slice(TOP);
    expect(figures.endpoints.other?.templates).toBe(rest.length);
    expect(micros(figures.endpoints.other?.cost_usd ?? "0")).toBe(
      rest.reduce((sum, e) => sum + micros(String(e.cost)), 0n),
    );

    const [pending] = await queryDb(withoutOperations, "SELECT count(*) AS n FROM pending_billing");
    expect(figures.pending_billing.calls).toBe(Number(pending?.n));
    expect(figures.totals.pending_calls).toBe(Number(pending?.n));
    const [failed] = await queryDb(
      withoutOperations,
      "SELECT count(*) AS n FROM api_calls WHERE status_code >= 400",
    );
    expect(figures.totals.failed_calls).toBe(Number(failed?.n));
    expect(figures.totals.failed_calls).toBeGreaterThan(0);
    expect(figures.rejects).toEqual({
      records: 2,
      latest_rejected_at: "2026-10-21T00:00:00.000000Z",
      reasons: [{ reason: "price has more than 6 decimal places", records: 2 }],
    });

    const expensive = await queryDb(
      withoutOperations,
      `SELECT id::VARCHAR AS id, price_usd::VARCHAR AS price FROM api_calls ORDER BY price_usd DESC NULLS LAST, created_at, id LIMIT ${TOP}`,
    );
    expect(figures.most_expensive_calls.map((c) => [c.id, c.price_usd])).toEqual(
      expensive.map((c) => [c.id, c.price]),
    );
    expect(figures.operations).toBeNull();
    // BigInt-safe and exact: JSON works, money stays decimal text.
    const json = JSON.parse(JSON.stringify(figures)) as ReportFigures;
    expect(json.totals.cost_usd).toMatch(/^\d+\.\d{6}$/);
  });

  test("--from/--to select whole UTC days, both included, and still equal the views", async () => {
    const from = "2026-10-05";
    const to = "2026-10-18";
    const figures = await figuresOf(withoutOperations, from, to);
    const [view] = await queryDb(
      withoutOperations,
      `SELECT sum(cost_usd)::VARCHAR AS cost, sum(calls) AS calls FROM cost_per_day WHERE day BETWEEN DATE '${from}' AND DATE '${to}'`,
    );
    expect(figures.totals.cost_usd).toBe(view?.cost);
    expect(figures.totals.calls).toBe(Number(view?.calls));
    // The same period written as instants: [from 00:00 UTC, to + 1 day 00:00 UTC).
    const [instants] = await queryDb(
      withoutOperations,
      `SELECT count(*) AS n, sum(price_usd)::VARCHAR AS cost FROM api_calls WHERE created_at >= TIMESTAMPTZ '${from} 00:00:00+00' AND created_at < TIMESTAMPTZ '2026-10-19 00:00:00+00'`,
    );
    expect(figures.totals.calls).toBe(Number(instants?.n));
    expect(micros(figures.totals.cost_usd)).toBe(micros(String(instants?.cost)));
    expect(figures.days[0]?.day).toBe(from);
    expect(figures.days.at(-1)?.day).toBe(to);
    expect(figures.recent).toMatchObject({
      first_day: from,
      last_day: to,
      cost_usd: figures.totals.cost_usd,
    });

    const endpoints = await queryDb(
      withoutOperations,
      `SELECT endpoint_template, count(*) AS calls, coalesce(sum(price_usd), 0)::DECIMAL(18,6)::VARCHAR AS cost FROM api_calls_enriched WHERE day BETWEEN DATE '${from}' AND DATE '${to}' GROUP BY endpoint_template ORDER BY sum(price_usd) DESC NULLS LAST, endpoint_template LIMIT ${TOP}`,
    );
    expect(figures.endpoints.top.map((e) => [e.endpoint_template, e.calls, micros(e.cost_usd)])).toEqual(
      endpoints.map((e) => [e.endpoint_template, Number(e.calls), micros(String(e.cost))]),
    );
    // Rejects count on the UTC day they were rejected: 23:59:59 on the 20th is outside the 21st.
    expect((await figuresOf(withoutOperations, "2026-10-21", "2026-10-21")).rejects.records).toBe(1);
    expect((await figuresOf(withoutOperations, "2026-10-05", "2026-10-18")).rejects.records).toBe(0);
  });

  test("a period without calls reports zeros, not errors", async () => {
    const figures = await figuresOf(withoutOperations, "2001-01-01", "2001-01-31");
    expect(figures.totals).toEqual({
      calls: 0,
      priced_calls: 0,
      pending_calls: 0,
      failed_calls: 0,
      cost_usd: "0.000000",
    });
    expect(figures.days).toEqual([]);
    expect(figures.endpoints).toEqual({ templates: 0, top: [], other: null });
    // Every day of the requested month, from the 1st: a day without calls is a zero.
    expect(figures.recent).toMatchObject({ first_day: "2001-01-01", last_day: "2001-01-31", calls: 0 });
    expect(figures.months).toEqual([
      {
        month: "2001-01",
        first_day: "2001-01-01",
        last_day: "2001-01-31",
        calls: 0,
        priced_calls: 0,
        pending_calls: 0,
        failed_calls: 0,
        cost_usd: "0.000000",
      },
    ]);
    // No period and no call: no month at all.
    const empty = await copyDb(withoutOperations, "empty.duckdb");
    await editDb(empty, ["DELETE FROM api_calls"]);
    expect((await figuresOf(empty, null, null)).months).toEqual([]);
  });

  test("months: every UTC month of the period, equal to cost_per_month, adding up to the total", async () => {
    const figures = await figuresOf(withoutOperations, null, null);
    const months = await queryDb(
      withoutOperations,
      "SELECT strftime(month, '%Y-%m') AS month, calls, priced_calls, pending_calls, cost_usd::VARCHAR AS cost FROM cost_per_month ORDER BY month",
    );
    expect(months.length).toBeGreaterThanOrEqual(2);
    expect(
      figures.months.map((m) => [m.month, m.calls, m.priced_calls, m.pending_calls, m.cost_usd]),
    ).toEqual(
      months.map((m) => [m.month, Number(m.calls), Number(m.priced_calls), Number(m.pending_calls), m.cost]),
    );
    expect(figures.months.reduce((sum, m) => sum + micros(m.cost_usd), 0n)).toBe(
      micros(figures.totals.cost_usd),
    );
    expect(figures.months.reduce((sum, m) => sum + m.failed_calls, 0)).toBe(figures.totals.failed_calls);
    // An open end is the first / last day with calls: the months say which of their days they hold.
    expect(figures.months[0]?.first_day).toBe(figures.period.first_day);
    expect(figures.months.at(-1)?.last_day).toBe(figures.period.last_day);

    // --from / --to inside months: the months are cut to the period, and still add up.
    const cut = await figuresOf(withoutOperations, "2026-09-30", "2026-10-02");
    expect(cut.months.map((m) => [m.month, m.first_day, m.last_day])).toEqual([
      ["2026-09", "2026-09-30", "2026-09-30"],
      ["2026-10", "2026-10-01", "2026-10-02"],
    ]);
    expect(cut.months.reduce((sum, m) => sum + micros(m.cost_usd), 0n)).toBe(micros(cut.totals.cost_usd));
  });

  test("months on real calendar edges: a leap February, December into January, empty months as zeros", async () => {
    const edges = await copyDb(withoutOperations, "edges.duckdb");
    // Four calls moved to the edges of months, to the microsecond; prices set to known amounts.
    await editDb(edges, [
      `CREATE TEMP TABLE moved AS
         SELECT id, row_number() OVER (ORDER BY id) AS n FROM api_calls WHERE price_usd IS NOT NULL ORDER BY id LIMIT 4`,
      `UPDATE api_calls SET
         created_at = CASE (SELECT n FROM moved WHERE moved.id = api_calls.id)
           WHEN 1 THEN TIMESTAMPTZ '2024-02-29 23:59:59.999999+00'
           WHEN 2 THEN TIMESTAMPTZ '2024-03-01 00:00:00+00'
           WHEN 3 THEN TIMESTAMPTZ '2026-12-31 23:59:59.999999+00'
           ELSE TIMESTAMPTZ '2027-01-01 00:00:00+00' END,
         price_usd = CASE (SELECT n FROM moved WHERE moved.id = api_calls.id)
           WHEN 1 THEN 1.000001 WHEN 2 THEN 2.000002 WHEN 3 THEN 3.000003 ELSE 4.000004 END,
         status_code = 200
       WHERE id IN (SELECT id FROM moved)`,
      // The day and month the loader stores with each call follow its new created_at.
      "UPDATE api_calls SET created_day = utc_day(created_at), created_month = utc_month(created_at)",
    ]);
    const february = await figuresOf(edges, "2024-02-01", "2024-02-29");
    expect(february.months).toEqual([
      {
        month: "2024-02",
        first_day: "2024-02-01",
        last_day: "2024-02-29",
        calls: 1,
        priced_calls: 1,
        pending_calls: february.totals.pending_calls,
        failed_calls: 0,
        cost_usd: "1.000001",
      },
    ]);
    expect(february.recent).toMatchObject({ first_day: "2024-02-01", last_day: "2024-02-29", calls: 1 });

    const newYear = await figuresOf(edges, "2026-12-01", "2027-01-31");
    expect(newYear.months.map((m) => [m.month, m.first_day, m.last_day, m.calls, m.cost_usd])).toEqual([
      ["2026-12", "2026-12-01", "2026-12-31", 1, "3.000003"],
      ["2027-01", "2027-01-01", "2027-01-31", 1, "4.000004"],
    ]);
    expect(newYear.totals.cost_usd).toBe("7.000007");

    // The months between the moved calls and the rest are listed, as zeros.
    const all = await figuresOf(edges, null, null);
    const months = all.months.map((m) => m.month);
    expect(months[0]).toBe("2024-02");
    expect(months.at(-1)).toBe("2027-01");
    expect(months).toHaveLength(12 * 2 + 12);
    expect(all.months.find((m) => m.month === "2025-06")).toMatchObject({ calls: 0, cost_usd: "0.000000" });
    expect(all.months.reduce((sum, m) => sum + micros(m.cost_usd), 0n)).toBe(micros(all.totals.cost_usd));
  });

  test("emails are read only when asked for", async () => {
    const hidden = await figuresOf(withoutOperations, null, null);
    expect(hidden.emails_shown).toBe(false);
    expect(hidden.most_expensive_calls.length).toBe(TOP);
    expect(hidden.most_expensive_calls.every((call) => !("email" in call))).toBe(true);
    expect(JSON.stringify(hidden)).not.toMatch(/@|"email"/);
    const shown = await figuresOf(withoutOperations, null, null, true);
    expect(shown.emails_shown).toBe(true);
    const [first] = await queryDb(
      withoutOperations,
      "SELECT email FROM api_calls ORDER BY price_usd DESC NULLS LAST, created_at, id LIMIT 1",
    );
    expect(shown.most_expensive_calls[0]?.email).toBe(first?.email);
    expect(String(first?.email)).toContain("@");
  });

  test("with the operation views: their figures, as the views give them", async () => {
    const figures = await figuresOf(withOperations, null, null);
    const rows = await queryDb(
      withOperations,
      "SELECT operation_type, status, operations, cost_usd::VARCHAR AS cost FROM cost_per_operation_type ORDER BY cost_usd DESC, operation_type, status",
    );
    expect(rows.length).toBeGreaterThan(1);
    expect(figures.operations?.by_type_and_status.rows).toEqual(
      rows.map((r) => ({
        operation_type: r.operation_type,
        status: r.status,
        operations: Number(r.operations),
        cost_usd: r.cost,
      })),
    );
    // The view has no date: the figures name the days of the stored operations it sums.
    const [window] = await queryDb(
      withOperations,
      `SELECT strftime(min(created_at AT TIME ZONE 'UTC'), '%Y-%m-%d') AS first,
         strftime(max(created_at AT TIME ZONE 'UTC'), '%Y-%m-%d') AS last
       FROM async_operations WHERE fetch_status = 'found'`,
    );
    expect(window?.first).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(figures.operations?.by_type_and_status).toMatchObject({
      scope: "stored_operations",
      first_day: window?.first,
      last_day: window?.last,
    });
    const [failed] = await queryDb(
      withOperations,
      "SELECT count(*) AS n, sum(price_usd)::VARCHAR AS cost FROM billed_failed_operations",
    );
    expect(figures.operations?.billed_failed.operations).toBe(Number(failed?.n));
    expect(micros(figures.operations?.billed_failed.cost_usd ?? "")).toBe(micros(String(failed?.cost)));
    expect(figures.operations?.billed_failed.most_expensive.length).toBe(Math.min(TOP, Number(failed?.n)));
  });
});
