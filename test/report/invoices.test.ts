import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { openWarehouse } from "../../src/load/database.js";
import type { ReportFigures } from "../../src/report/figures.js";
import { renderHtml } from "../../src/report/html.js";
import { readReportFigures } from "../../src/report/readFigures.js";
import { renderTerminal } from "../../src/report/terminal.js";
import { startSimulator } from "../../src/sim/index.js";
import { exportOnce, queryDb, tempWorkspace } from "../helpers/exportHarness.js";
import { copyDb, editDb } from "./fixtures.js";

async function figuresOf(db: string, from: string | null, to: string | null): Promise<ReportFigures> {
  const warehouse = await openWarehouse(db, { readOnly: true });
  try {
    return await readReportFigures(warehouse, { from, to, top: 5, generatedAt: new Date(0) });
  } finally {
    warehouse.close();
  }
}

describe("the report's invoices", () => {
  let workspace: Awaited<ReturnType<typeof tempWorkspace>>;

  beforeAll(async () => {
    workspace = await tempWorkspace();
    const sim = await startSimulator({
      seed: 21,
      calls: 4000,
      days: 120,
      users: 2,
      now: new Date("2026-06-20T00:00:00Z"),
      invoiceDisagreement: true,
    });
    try {
      const { exitCode } = await exportOnce({
        baseUrl: sim.url,
        token: sim.users[0]?.token ?? "",
        flags: { db: workspace.db, out: workspace.out, limit: 1000, operations: false },
      });
      expect(exitCode).toBe(0);
    } finally {
      await sim.close();
    }
  });
  afterAll(() => workspace.cleanup());

  test("each month's usage in its classes, exact, and the one line that differs", async () => {
    const figures = await figuresOf(workspace.db, null, null);
    const invoices = figures.invoices;
    if (invoices === null) throw new Error("expected invoice figures");
    const months = await queryDb(
      workspace.db,
      `SELECT strftime(month, '%Y-%m') AS month, usage_cost_usd::VARCHAR AS usage,
         invoiced_usage_usd::VARCHAR AS invoiced, unexplained_usd::VARCHAR AS unexplained, status
       FROM monthly_reconciliation ORDER BY month`,
    );
    expect(
      invoices.months.map((m) => [
        m.month,
        m.usage_cost_usd,
        m.invoiced_usage_usd,
        m.unexplained_usd,
        m.status,
      ]),
    ).toEqual(months.map((m) => [m.month, m.usage, m.invoiced, m.unexplained, m.status]));
    expect(invoices.lines.not_agreeing).toHaveLength(1);
    expect(invoices.lines.not_agreeing[0]).toMatchObject({ status: "differs", difference: "1.230000" });
    expect(invoices.lines.agreeing).toBe(invoices.lines.usage_lines - 1);
    expect(invoices.unexplained_calls).toEqual([]);
    const differing = invoices.months.filter((m) => m.status === "differs");
    expect(differing.map((m) => [m.lines_differing, m.lines_difference, m.unexplained_usd])).toEqual([
      [1, "1.230000", "0.000000"],
    ]);

    const terminal = renderTerminal(figures);
    expect(terminal).toContain("usage = invoiced + not billed + awaiting + unexplained");
    expect(terminal).toMatch(/: \+1\.23 USD unexplained/);
    expect(terminal.replace(/\s+/g, " ")).toContain(
      `${invoices.lines.agreeing} of ${invoices.lines.usage_lines} usage lines agree`,
    );
    const html = renderHtml(figures);
    expect(html).toContain("<h2>Invoices against spend</h2>");
    expect(html).toContain('title="1.230000 USD">+1.23<');
  });

  test("a period keeps only its months", async () => {
    const figures = await figuresOf(workspace.db, "2026-04-10", "2026-05-02");
    expect(figures.invoices?.months.map((m) => m.month)).toEqual(["2026-04", "2026-05"]);
    // The usage line counts are read whether or not any line is listed.
    const lines = figures.invoices?.lines;
    expect(lines?.usage_lines).toBeGreaterThan(0);
    expect(lines?.agreeing).toBe((lines?.usage_lines ?? 0) - (lines?.not_agreeing.length ?? 0));
  });

  test("a database without the invoice views reports null, and the page leaves the section out", async () => {
    const old = await copyDb(workspace.db, "old.duckdb");
    await editDb(
      old,
      [
        "DROP VIEW monthly_reconciliation",
        "DROP VIEW calls_not_invoiced",
        "DROP VIEW call_billing_class",
        "DROP VIEW invoice_lines_without_calls",
        "DROP VIEW invoice_line_reconciliation",
        "DROP VIEW invoice_totals",
        "DROP VIEW invoice_item_calls",
        "DROP TABLE invoice_lines",
        "DROP TABLE invoices",
      ],
      { derive: false },
    );
    const figures = await figuresOf(old, null, null);
    expect(figures.invoices).toBeNull();
    expect(renderTerminal(figures)).not.toContain("invoices  USD a month");
    expect(renderHtml(figures)).not.toContain("Invoices against spend");
  });
});
