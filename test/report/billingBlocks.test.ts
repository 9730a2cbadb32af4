import { describe, expect, test } from "vitest";
import { creditsSection } from "../../src/report/creditsHtml.js";
import { creditLines } from "../../src/report/creditsTerminal.js";
import { invoicesSection } from "../../src/report/invoiceHtml.js";
import { invoiceLines } from "../../src/report/invoiceTerminal.js";
import type { CreditFigures } from "../../src/report/readBalanceFigures.js";
import type { InvoiceFigures, InvoiceMonthFigure } from "../../src/report/readInvoiceFigures.js";

/**
 * The invoices and credits blocks as a reader sees them: every line fits an 80-column terminal with
 * large amounts, a month with no invoice yet is not shown as a shortfall, and credits at zero read
 * as used up, never as "nothing is being consumed".
 */

const COLUMNS = 80;

function tooWide(lines: string[]): string[] {
  return lines.filter((line) => line.length > COLUMNS);
}

const CREDITS: CreditFigures = {
  taken_at: "2026-11-23T18:38:26.146000Z",
  remaining_usd: "1234567.123456",
  monthly_usd: "20.000000",
  stable_usd: "1234547.123456",
  burn_usd_per_day: "98765.432109",
  burn_source: "snapshots",
  runway_days: 12.5,
  runs_out_on: "2026-12-06",
};

const USED_UP: CreditFigures = {
  ...CREDITS,
  remaining_usd: "0.000000",
  monthly_usd: "0.000000",
  stable_usd: "0.000000",
  burn_usd_per_day: "413.637504",
  burn_source: "api_calls",
  runway_days: 0,
  runs_out_on: "2026-11-23",
};

function month(name: string, invoiced: boolean, differing = 0): InvoiceMonthFigure {
  return {
    month: name,
    calls: 123456,
    usage_cost_usd: "1234567.123456",
    invoice_lines: invoiced ? 1 : 0,
    invoiced_usd: invoiced ? "1234568.353456" : "0.000000",
    difference_usd: invoiced ? "1.230000" : "-1234567.123456",
    lines_differing: differing,
  };
}

const INVOICES: InvoiceFigures = {
  months: [month("2026-09", true, 1), month("2026-10", false), month("2026-11", false)],
  lines: {
    in_period: 1,
    agreeing: 0,
    not_agreeing: [
      {
        month: "2026-09",
        invoice_id: "in_1jRYE74dwqwg1XP0v11E5Uvb0",
        invoice_number: "ALUAY3KM-202609",
        invoice_item: "ii_1gzXpV38N6MO08jrES1n97Tr1",
        status: "differs",
        line_amount_usd: "1234568.353456",
        calls: 123456,
        calls_cost_usd: "1234567.123456",
        difference_usd: "1.230000",
      },
    ],
  },
  calls_not_invoiced: { calls: 12345, cost_usd: "123456.123456" },
};

describe("the credits block", () => {
  test("fits 80 columns with large amounts and says when the credits run out", () => {
    const lines = creditLines(CREDITS);
    expect(tooWide(lines)).toEqual([]);
    const text = lines.join("\n");
    expect(text).toContain("1,234,567.123456 USD left");
    expect(text).toContain("runs out on 2026-12-06");
    expect(text).toContain("12.5 days");
  });

  test("credits at zero are used up, not 'nothing is being consumed'", () => {
    const lines = creditLines(USED_UP);
    expect(tooWide(lines)).toEqual([]);
    const text = lines.join("\n");
    expect(text).toMatch(/used up/);
    expect(text).not.toMatch(/nothing is being consumed|runs out on/);
    const html = creditsSection(USED_UP);
    expect(html).toMatch(/used up/);
  });
});

describe("the invoices block", () => {
  test("fits 80 columns with large amounts, headers over their values", () => {
    const lines = invoiceLines(INVOICES);
    expect(tooWide(lines)).toEqual([]);
    // Each header ends where its column's values end (numbers are right-aligned).
    const header = lines.find((line) => line.includes("usage USD")) ?? "";
    const row = lines.find((line) => line.includes("2026-09")) ?? "";
    for (const [name, value] of [
      ["usage USD", "1,234,567.123456"],
      ["invoiced USD", "1,234,568.353456"],
      ["difference USD", "+1.230000"],
    ] as const) {
      expect(header.indexOf(name) + name.length, name).toBe(row.indexOf(value) + value.length);
    }
  });

  test("a month without an invoice yet is not shown as a shortfall", () => {
    const lines = invoiceLines(INVOICES);
    const october = lines.find((line) => line.includes("2026-10")) ?? "";
    expect(october).toContain("not invoiced yet");
    expect(october).not.toContain("-1,234,567.123456");
    expect(october).not.toMatch(/\b0\.000000\b/);
    const html = invoicesSection(INVOICES);
    // Signed as in the terminal: the invoice asks 1.23 more than the calls cost.
    const september = html.split("<tr>").filter((part) => part.includes(">2026-09<"));
    expect(september.map((part) => part.includes(">+1.230000<"))).toEqual([true, true]);
    const row = html.split("<tr>").find((part) => part.includes(">2026-10<")) ?? "";
    expect(row).toContain("not invoiced yet");
    expect(row).not.toContain("-1,234,567.123456");
  });
});
