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
  monthly_credits: "2400",
  stable_credits: "148145654774",
  monthly_refresh_at: "2026-12-01T00:00:00.000000Z",
  monthly_allowance_usd: "20.000000",
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
    currency: "USD",
    status: differing > 0 ? "differs" : invoiced ? "agrees" : "not_invoiced",
    calls: 123456,
    usage_cost_usd: "1234567.123456",
    invoiced_calls: invoiced ? 123000 : 0,
    invoiced_usage_usd: invoiced ? "1234000.000000" : "0.000000",
    other_currency_calls: 0,
    other_currency_usd: "0.000000",
    not_billed_calls: invoiced ? 456 : 0,
    not_billed_usd: invoiced ? "567.123456" : "0.000000",
    ...(invoiced ? { credits_paid_usd: "500.000000", monthly_allowance_usd: "20.000000" } : {}),
    awaiting_calls: invoiced ? 0 : 123456,
    awaiting_usd: invoiced ? "0.000000" : "1234567.123456",
    on_incomplete_invoice_calls: 0,
    unexplained_calls: 0,
    unexplained_usd: "0.000000",
    rejected_calls: 0,
    invoices: invoiced ? 1 : 0,
    invoices_incomplete: 0,
    invoice_lines: invoiced ? 2 : 0,
    usage_lines: invoiced ? "1234001.230000" : "0.000000",
    lines_differing: differing,
    lines_difference: differing > 0 ? "1.230000" : "0.000000",
    difference: differing > 0 ? "1.230000" : "0.000000",
    discounts: invoiced ? "-123400.120000" : "0.000000",
    tax: invoiced ? "101805.010000" : "0.000000",
    other_charges: invoiced ? "20.000000" : "0.000000",
    credits: "0.000000",
    lines_not_listed: "0.000000",
    charged: invoiced ? "1212426.120000" : "0.000000",
    balance_applied: "0.000000",
    due: invoiced ? "1212426.120000" : "0.000000",
    paid: invoiced ? "606213.060000" : "0.000000",
    refunded: invoiced ? "1000.000000" : "0.000000",
    outstanding: invoiced ? "606213.060000" : "0.000000",
    written_off: "0.000000",
  };
}

const INVOICES: InvoiceFigures = {
  months: [month("2026-09", true, 1), month("2026-10", false), month("2026-11", false)],
  lines: {
    usage_lines: 1,
    agreeing: 0,
    not_agreeing: [
      {
        month: "2026-09",
        invoice_id: "in_1jRYE74dwqwg1XP0v11E5Uvb0",
        invoice_number: "ALUAY3KM-202609",
        invoice_item: "ii_1gzXpV38N6MO08jrES1n97Tr1",
        description: "API usage",
        line_class: "usage",
        status: "differs",
        currency: "USD",
        line_amount: "1234001.230000",
        item_lines: 1,
        item_lines_amount: "1234001.230000",
        calls: 123000,
        calls_cost_usd: "1234000.000000",
        item_discount: "0.000000",
        difference: "1.230000",
      },
    ],
    other: [
      {
        month: "2026-09",
        invoice_id: "in_1jRYE74dwqwg1XP0v11E5Uvb0",
        invoice_number: "ALUAY3KM-202609",
        invoice_item: "ii_sub",
        description: "Zoo Pro subscription",
        line_class: "other_charge",
        status: "other_charge",
        currency: "USD",
        line_amount: "20.000000",
        item_lines: 1,
        item_lines_amount: "20.000000",
        calls: 0,
        calls_cost_usd: "0.000000",
        item_discount: "0.000000",
        difference: "0.000000",
      },
    ],
  },
  not_invoiced: [
    { billing_class: "awaiting_invoice", reason: "month_open", calls: 246912, cost_usd: "2469134.246912" },
    { billing_class: "not_billed", reason: "no_invoice_item", calls: 456, cost_usd: "567.123456" },
  ],
  unexplained_calls: [],
};

describe("the credits block", () => {
  test("the page's table: cents with the exact value on hover, and the credits as counted", () => {
    const html = creditsSection(CREDITS);
    expect(html).toContain('title="1234547.123456 USD">1,234,547.12<');
    expect(html).toContain(">148,145,654,774<");
    expect(html).toContain('title="20.000000 USD">20.00<');
  });

  test("a burn the monthly allowance keeps up with has no run-out date, and says why", () => {
    const text = creditLines({ ...CREDITS, runway_days: null, runs_out_on: null }).join("\n");
    expect(text).toContain("the monthly allowance keeps up with the burn");
  });

  test("fits 80 columns with large amounts and says when the credits run out", () => {
    const lines = creditLines(CREDITS);
    expect(tooWide(lines)).toEqual([]);
    const text = lines.join("\n");
    expect(text).toContain("1,234,567.12 USD left");
    expect(text).toContain("runs out on 2026-12-06");
    expect(text).toContain("12.5 days");
    // Counts beside the monetary values, and when the monthly ones come back.
    expect(text).toContain("(2,400 + 148,145,654,774 credits)");
    expect(text).toContain("monthly credits refresh 2026-12-01 to 20.00 USD");
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
  test("fits 80 columns with large amounts, headers over their values, in cents", () => {
    const lines = invoiceLines(INVOICES);
    expect(tooWide(lines)).toEqual([]);
    // Each header ends where its column's values end (numbers are right-aligned).
    const header = lines.find((line) => line.trimStart().startsWith("month")) ?? "";
    const row = lines.find((line) => line.includes("2026-09")) ?? "";
    let from = 0;
    for (const [name, value] of [
      ["usage", "1,234,567.12"],
      ["invoiced", "1,234,000.00"],
      ["not billed", "567.12"],
    ] as const) {
      from = row.indexOf(value, from) + value.length;
      expect(header.indexOf(name) + name.length, name).toBe(from);
    }
    // Each month's status after the table, months of one status together.
    expect(lines).toContain(`${" ".repeat(10)}2026-09: check 1 lines.`);
    expect(lines).toContain(`${" ".repeat(10)}2026-10, 2026-11: not invoiced yet.`);
  });

  test("the classes in words: credits paid, other charges apart, the line that differs", () => {
    const text = invoiceLines(INVOICES).join("\n").replace(/\s+/g, " ");
    expect(text).toContain(
      "Not billed (paid by API credits or a free allowance), the calls carry no invoice item: 456 calls, 567.12.",
    );
    expect(text).toContain("credits paying 500.00 of the 567.12 not billed");
    expect(text).toContain("+1.23 USD unexplained");
    expect(text).toContain("2026-10, 2026-11: not invoiced yet.");
  });

  test("the books: what was charged, of what, and how it was settled, per month and currency", () => {
    const usdMonth: InvoiceMonthFigure = {
      ...month("2026-09", true, 1),
      usage_lines: "12001.230000",
      discounts: "-1200.120000",
      tax: "891.010000",
      charged: "11712.120000",
      due: "11712.120000",
      paid: "5856.060000",
      refunded: "100.000000",
      outstanding: "5856.060000",
    };
    const euros: InvoiceMonthFigure = {
      ...month("2026-09", true),
      currency: "EUR",
      status: "other_currency",
      calls: 0,
      usage_cost_usd: "0.000000",
      charged: "88.400000",
      due: "88.400000",
      paid: "0.000000",
      refunded: "0.000000",
      outstanding: "0.000000",
      written_off: "88.400000",
    };
    const months = [usdMonth, euros];
    const lines = invoiceLines({ ...INVOICES, months });
    expect(tooWide(lines)).toEqual([]);
    const header = lines.find((line) => line.includes("still owed")) ?? "";
    const usd = lines.find((line) => line.includes("2026-09 USD ")) ?? "";
    let from = 0;
    for (const [name, value] of [
      ["charged", "11,712.12"],
      ["paid", "5,856.06"],
      ["refunded", "100.00"],
      ["still owed", "5,856.06"],
      ["written off", "0.00"],
    ] as const) {
      from = usd.indexOf(value, from) + value.length;
      expect(header.indexOf(name) + name.length, name).toBe(from);
    }
    expect(lines.find((line) => line.includes("2026-09 EUR "))).toMatch(
      /88\.40\s+0\.00\s+0\.00\s+0\.00\s+88\.40$/,
    );
    const text = lines.join("\n").replace(/\s+/g, " ");
    expect(text).toContain(
      "2026-09 USD: charged 11,712.12 = usage 12,001.23, discounts -1,200.12, tax 891.01, other charges 20.00, unexplained 1.23.",
    );
    // The usage table holds the USD rows only: the calls are priced in USD.
    expect(lines.filter((line) => /^\s*2026-09 {2}/.test(line)).length).toBe(1);
    // Too large for the table under its label: from the first column, still within 80 columns.
    const large = invoiceLines(INVOICES);
    expect(tooWide(large)).toEqual([]);
    expect(large).toContain("2026-09 USD  1,212,426.12  606,213.06  1,000.00  606,213.06         0.00");
    const html = invoicesSection({ ...INVOICES, months });
    expect(html).toContain('title="88.400000 EUR">88.40<');
    expect(html).toContain("Charged, paid and owed");
  });

  test("the page shows cents with the exact value on hover", () => {
    const html = invoicesSection(INVOICES);
    expect(html).toContain('title="1234567.123456 USD">1,234,567.12<');
    expect(html).toContain('title="1.230000 USD">+1.23<');
    expect(html).toContain("Zoo Pro subscription (other charge)");
    const row = html.split("<tr>").find((part) => part.includes(">2026-10<")) ?? "";
    expect(row).toContain("not invoiced yet");
  });

  test("too wide for a table: one month a few lines, still within 80 columns", () => {
    const huge = {
      ...month("2026-09", true),
      usage_cost_usd: "123456789012.123456",
      awaiting_usd: "123456789012.123456",
    };
    const lines = invoiceLines({ ...INVOICES, months: [huge] });
    expect(tooWide(lines)).toEqual([]);
    expect(lines.join("\n")).toContain("usage 123,456,789,012.12");
  });
});
