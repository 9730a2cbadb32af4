import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { describeRun } from "../../src/commands/export.js";
import { loadExportConfig } from "../../src/config/exportConfig.js";
import { describeCostSummary } from "../../src/load/costSummary.js";
import { counted } from "../../src/log/plural.js";
import { packParts, textWidth, wrapLine } from "../../src/log/terminalText.js";
import { cents } from "../../src/report/cents.js";
import type { ReportFigures } from "../../src/report/figures.js";
import { renderTerminal } from "../../src/report/terminal.js";
import { groupCount } from "../../src/report/usd.js";
import { newRunSummary, type RunSummary } from "../../src/sources/runSummary.js";
import { runCli } from "../helpers/cli.js";
import { buildWarehouse } from "./fixtures.js";

/**
 * What a person at an 80-column terminal sees: every line of `report` fits (text re-wrapped under
 * its label, labels cut with an ellipsis), on a real export and on figures chosen to be wide, and
 * every exact amount and count is still printed whole. The export's closing summary fits too,
 * except the lines that end in a path, which are never cut.
 */

const COLUMNS = 80;

/** Display width: the sparkline blocks and the ellipsis count one column each, a CJK character two. */
const width = textWidth;
const tooWide = (text: string) => text.split("\n").filter((line) => width(line) > COLUMNS);

let fixture: Awaited<ReturnType<typeof buildWarehouse>>;
let real: ReportFigures;
beforeAll(async () => {
  fixture = await buildWarehouse({ seed: 11, calls: 1500, days: 45, invoiceDisagreement: true });
  const json = await runCli(["report", "--db", fixture.db, "--json"]);
  expect(json.code, json.stderr).toBe(0);
  real = JSON.parse(json.stdout) as ReportFigures;
});
afterAll(async () => {
  await fixture.cleanup();
});

const BIG = "1234567890.123456";
const LONG_TEMPLATE = `/org/${"{a_very_long_path_parameter_name}/".repeat(4)}file/conversion/{src_format}/{output_format}`;
const LONG_NAME = "Maximiliane Alexandrina von Hohenzollern-Sigmaringen-Württemberg (admin of everything)";

/** The real figures made as wide as they get: huge amounts and counts, long names, a 31-day period. */
function adversarial(base: ReportFigures): ReportFigures {
  const days = Array.from({ length: 31 }, (_, i) => ({
    day: `2026-10-${String(i + 1).padStart(2, "0")}`,
    calls: 3_987_654,
    priced_calls: 3_987_000,
    pending_calls: 654,
    failed_calls: 12_345,
    cost_usd: `${i + 1}234567.654321`,
  }));
  return {
    ...base,
    database: `/tmp/${"a-rather-long-directory-name/".repeat(4)}zoo-usage-warehouse.duckdb`,
    period: {
      from: "2026-10-01",
      to: "2026-10-31",
      first_day: "2026-10-01",
      last_day: "2026-10-31",
      days_with_calls: 31,
      first_call_at: "2026-10-01T00:00:00.123456Z",
      last_call_at: "2026-10-31T23:59:59.987654Z",
    },
    totals: {
      calls: 123_456_789,
      priced_calls: 123_000_000,
      pending_calls: 456_789,
      failed_calls: 12_345_678,
      cost_usd: BIG,
    },
    recent: { first_day: "2026-10-01", last_day: "2026-10-31", calls: 123_456_789, cost_usd: BIG },
    days,
    months: [
      {
        month: "2026-10",
        first_day: "2026-10-02",
        last_day: "2026-10-31",
        calls: 123_456_789,
        priced_calls: 123_000_000,
        pending_calls: 456_789,
        failed_calls: 12_345_678,
        cost_usd: BIG,
      },
    ],
    endpoints: {
      templates: 1234,
      top: [
        {
          rank: 1,
          endpoint_template: LONG_TEMPLATE,
          calls: 98_765_432,
          priced_calls: 98_765_432,
          cost_usd: "987654321.987654",
        },
        { rank: 2, endpoint_template: null, calls: 1, priced_calls: 1, cost_usd: "0.000001" },
      ],
      other: { templates: 1232, calls: 24_691_356, priced_calls: 24_691_356, cost_usd: "246912345.135802" },
    },
    pending_billing: {
      calls: 12_345_678,
      cost_usd_so_far: "9876543.210987",
      oldest_created_at: "2026-10-01T00:00:00.123456Z",
    },
    rejects: {
      records: 1_234_567,
      latest_rejected_at: "2026-10-31T23:59:59.987654Z",
      reasons: [
        {
          reason: `endpoint ${LONG_TEMPLATE} does not match any known template of the spec`,
          records: 12_345_678,
        },
      ],
    },
    own_calls: { calls: 1_234_567, cost_usd: "12345.678901", cost_usd_excluding_own: "1234555544.444555" },
    operations: {
      by_type_and_status: {
        scope: "stored_operations",
        first_day: "2026-09-01",
        last_day: "2026-10-31",
        rows: Array.from({ length: 14 }, (_, i) => ({
          operation_type: `text_to_cad_multi_file_iteration_with_a_long_name_${i}`,
          status: "completed_after_a_very_long_wait",
          operations: 9_876_543,
          cost_usd: `${i + 1}87654321.123456`,
        })),
      },
      billed_failed: { operations: 7_654_321, cost_usd: "7654321.765432", most_expensive: [] },
    },
    invoices: {
      months: ["2026-09", "2026-10"].map((month, i) => ({
        month,
        currency: "USD",
        status: i === 0 ? "differs" : "not_invoiced",
        calls: 123_456,
        usage_cost_usd: BIG,
        invoiced_calls: 123_456,
        invoiced_usage_usd: "1234567891.123456",
        other_currency_calls: 123_456,
        other_currency_usd: BIG,
        not_billed_calls: 123_456,
        not_billed_usd: BIG,
        credits_paid_usd: BIG,
        monthly_allowance_usd: "1234567.000000",
        awaiting_calls: 123_456,
        awaiting_usd: BIG,
        on_incomplete_invoice_calls: 123_456,
        unexplained_calls: 123_456,
        unexplained_usd: BIG,
        rejected_calls: 123_456,
        invoices: 12,
        invoices_incomplete: 3,
        invoice_lines: 123_456,
        usage_lines: "1234567891.123456",
        lines_differing: 123,
        lines_difference: "-1234567.000001",
        difference: "-1234567.000001",
        discounts: `-${BIG}`,
        tax: BIG,
        other_charges: BIG,
        credits: `-${BIG}`,
        lines_not_listed: BIG,
        charged: "1234567891.123456",
        balance_applied: BIG,
        due: "1234567891.123456",
        paid: BIG,
        refunded: BIG,
        outstanding: BIG,
        written_off: BIG,
      })),
      lines: {
        usage_lines: 1,
        agreeing: 0,
        not_agreeing: [
          {
            month: "2026-09",
            invoice_id: "in_1jRYE74dwqwg1XP0v11E5Uvb0",
            invoice_number: `INVOICE-NUMBER-${"X".repeat(60)}`,
            invoice_item: `ii_${"Y".repeat(90)}`,
            description: `API usage ${"Z".repeat(90)}`,
            line_class: "usage",
            status: "differs",
            currency: "USD",
            line_amount: "1234567891.123456",
            item_lines: 123,
            item_lines_amount: "1234567891.123456",
            calls: 123_456,
            calls_cost_usd: BIG,
            item_discount: BIG,
            difference: "1.000000",
          },
        ],
        other: [],
      },
      not_invoiced: [
        { billing_class: "awaiting_invoice", reason: "invoice_incomplete", calls: 12_345_678, cost_usd: BIG },
        { billing_class: "unexplained", reason: "item_not_on_any_line", calls: 12_345_678, cost_usd: BIG },
      ],
      unexplained_calls: [
        {
          id: "00000000-0000-4000-8000-000000000001",
          created_at: "2026-09-01T00:00:00.000000Z",
          price_usd: BIG,
          invoice_item: `ii_${"Y".repeat(90)}`,
          invoice_id: `in_${"W".repeat(90)}`,
        },
      ],
    },
    credits: {
      taken_at: "2026-10-31T23:59:59.987654Z",
      remaining_usd: "1234567.123456",
      monthly_usd: "20.000000",
      stable_usd: "1234547.123456",
      monthly_credits: "2400",
      stable_credits: "148145654774",
      monthly_refresh_at: "2026-11-01T00:00:00.000000Z",
      monthly_allowance_usd: "1234567.123456",
      burn_usd_per_day: "98765.432109",
      burn_source: "snapshots",
      runway_days: 12.5,
      runs_out_on: "2026-11-12",
    },
    spenders: {
      per_member: [{ user_id: "u-1", name: LONG_NAME, role: "admin", calls: 123_456_789, cost_usd: BIG }],
      per_token_label: [
        {
          match_status: "matched",
          token_kind: "service_account",
          token_label: `ci-${"pipeline-".repeat(10)}`,
          calls: 123_456_789,
          cost_usd: BIG,
        },
      ],
      token_match: { calls: 123_456_789, matched_calls: 123_456_789, ambiguous_calls: 0, unmatched_calls: 0 },
    },
  };
}

describe("the terminal report at 80 columns", () => {
  test("on a real export, the CLI's every line fits and the figures are whole, to the cent", async () => {
    const result = await runCli(["report", "--db", fixture.db]);
    expect(result.code, result.stderr).toBe(0);
    expect(tooWide(result.stdout)).toEqual([]);
    expect(result.stdout).toContain(
      `${cents(real.totals.cost_usd)} USD over ${groupCount(real.totals.calls)} calls`,
    );
    for (const month of real.months) expect(result.stdout).toContain(cents(month.cost_usd));
    for (const row of real.endpoints.top) expect(result.stdout).toContain(cents(row.cost_usd));
    // One money format in the terminal: no amount with micro-dollars.
    expect(result.stdout).not.toMatch(/\d\.\d{6} USD/);
    expect(real.invoices).not.toBeNull();
  });

  test("with huge amounts, long templates, names and labels and a 31-day period", () => {
    const figures = adversarial(real);
    const text = renderTerminal(figures);
    expect(tooWide(text)).toEqual([]);
    const money = [
      BIG,
      "987654321.987654",
      "246912345.135802",
      "9876543.210987",
      "12345.678901",
      "1234555544.444555",
      "7654321.765432",
      "1234567.123456",
      "98765.432109",
      ...figures.days.map((day) => day.cost_usd).filter((cost) => cost.startsWith("31")),
      ...(figures.operations?.by_type_and_status.rows.slice(0, 12).map((row) => row.cost_usd) ?? []),
    ];
    // Every table in cents, rounded half to even (exact in --json and on the page's hover).
    for (const amount of money) expect(text, amount).toContain(cents(amount));
    for (const amount of ["1,234,567,891.12", "1,234,567,890.12", "+1.00"])
      expect(text, amount).toContain(amount);
    for (const count of [123_456_789, 98_765_432, 9_876_543, 12_345_678, 1_234_567, 7_654_321])
      expect(text, String(count)).toContain(groupCount(count));
    // Labels are cut, not the figures: the template, the name and the token label end in an ellipsis.
    expect(text).toContain(LONG_TEMPLATE.slice(0, 30));
    expect(text).not.toContain(LONG_TEMPLATE);
    expect(text).toMatch(/^ {2}[\d,.]+ USD +123,456,789 calls {2}Maximiliane .*…$/m);
    expect(text).toMatch(/^ {2}[\d,.]+ +[\d,]+ +\/org\/\{a_very.*…$/m);
    // The period is on two lines under its label, the requested bounds on the second.
    expect(text).toMatch(
      /^period {4}2026-10-01 \.\. 2026-10-31 \(31 days with calls\)\n {10}requested 2026-10-01/m,
    );
    // A word wider than a line (the database path) is split over lines, never lost.
    expect(text.replace(/\n +/g, "")).toContain(figures.database);
  });
});

describe("the export's closing summary", () => {
  const config = loadExportConfig({
    flags: {
      db: `/tmp/${"deep/".repeat(20)}zoo-usage.duckdb`,
      out: `/tmp/${"deeper/".repeat(20)}zoo-usage-out`,
    },
    env: {},
  });
  const dbLine = `  database ${config.dbPath}`;

  function summary(count: number): RunSummary {
    const step = { status: "stored" as const, rejected: 0, seconds: 1.5 };
    return {
      ...newRunSummary("2026-10-31T23-59-59Z-abcdef"),
      status: "partial",
      requests: 123_456_789,
      retries: 1_234_567,
      pages: 1_234_567,
      records_seen: 123_456_789,
      records_new: 123_456_789,
      records_updated: 12_345_678,
      records_rejected: 1_234_567,
      partitions_written: 12_345,
      operations: {
        fetched: 12_345_678,
        changed: 1_234_567,
        not_found: 123_456,
        rejected: 12_345,
        window_start: "2026-10-01T00:00:00.000000Z",
        skipped_outside_window: count,
        concurrency: { start: 8, max: 16, end: 8 } as never,
      },
      pending_rereads: {
        asked: 12_345_678,
        settled: 1_234_567,
        still_pending: 123_456,
        not_found: 12_345,
        rejected: 0,
        left: 1_234_567,
      },
      spenders: {
        ...step,
        api_tokens: count,
        service_accounts: count,
        org_members: count,
        skipped_listings: [],
      },
      invoices: { ...step, invoices: count, new_invoices: count, lines: count },
      balance: { ...step, snapshots: 1, remaining_usd: "1234567890.123456" },
      warnings: [
        `the file ${config.outDir}/api_calls/year=2026/month=10/part-0.parquet could not be replaced: EACCES`,
      ],
      message:
        "the API answered 503 Service Unavailable to GET /user/api-calls after 8 attempts over 12 minutes",
    };
  }

  test("lines without a path fit 80 columns; a path is never cut", () => {
    const text = describeRun(summary(123_456_789), config);
    const lines = text.split("\n");
    const pathLines = lines.filter((line) => line.includes(config.dbPath) || line.includes(config.outDir));
    expect(tooWide(text).filter((line) => !pathLines.includes(line))).toEqual([]);
    expect(lines).toContain(dbLine);
    expect(text).toContain(`${config.outDir}/api_calls`);
    expect(text).toContain(`${config.outDir}/async_operations`);
    expect(text).toContain(`${config.outDir}/api_calls/year=2026/month=10/part-0.parquet`);
    expect(text).toContain("1,234,567,890.123456 USD");
  });

  test("the spend lines after it fit 80 columns; amounts and counts whole, templates cut", () => {
    const text = describeCostSummary({
      calls: 123_456_789,
      costUsd: BIG,
      firstCall: "2026-10-01T00:00:00.123456Z",
      lastCall: "2026-10-31T23:59:59.987654Z",
      pendingCalls: 12_345_678,
      topEndpoints: [
        { template: LONG_TEMPLATE, calls: 98_765_432, costUsd: "987654321.987654" },
        { template: "/file/mass", calls: 1, costUsd: "0.000001" },
      ],
    });
    expect(tooWide(text)).toEqual([]);
    expect(text).toContain("spend: 1,234,567,890.123456 USD over 123,456,789 calls, 12,345,678 with");
    expect(text).toMatch(/^ {4}987,654,321\.987654 USD +98,765,432 calls {2}\/org\/\{a_very.*…$/m);
    expect(text).toMatch(/^ {4} +0\.000001 USD +1 call {3}\/file\/mass$/m);
  });

  test("counts agree with their nouns", () => {
    const one = describeRun(summary(1), config);
    expect(one).toContain("who spent it: 1 API token, 1 service account, 1 org member listed");
    expect(one).toContain("1 invoice stored (1 new), 1 invoice line, 0 rejected");
    expect(one).toContain("async operations of 1 call created before");
    const two = describeRun(summary(2), config);
    expect(two).toContain("who spent it: 2 API tokens, 2 service accounts, 2 org members listed");
    expect(two).toContain("2 invoices stored (2 new), 2 invoice lines, 0 rejected");
    expect(two).toContain("async operations of 2 calls created before");
  });
});

describe("the layout helpers", () => {
  test("wrapLine keeps a label's padding, hangs the rest, and splits a word only when told", () => {
    const path = `/${"x".repeat(90)}`;
    expect(wrapLine(`pending   ${"word ".repeat(20)}end`, " ".repeat(10))).toEqual([
      `pending   ${"word ".repeat(13)}word`,
      `          ${"word ".repeat(6)}end`,
    ]);
    expect(wrapLine(`  see ${path} now`, "    ")).toEqual(["  see", `    ${path}`, "    now"]);
    const split = wrapLine(`  see ${path} now`, "    ", { breakWords: true });
    expect(split.every((line) => width(line) <= COLUMNS)).toBe(true);
    expect(split.join("").replace(/ +/g, " ")).toContain(path.slice(0, 70));
  });

  test("packParts never splits a part", () => {
    const parts = ["prepare 10.5 s", "scan 1234.5 s", "account 0.1 s", "operations 999.9 s", "parquet 0.1 s"];
    const lines = packParts("  time: ", parts, "    ");
    expect(lines).toEqual([
      "  time: prepare 10.5 s, scan 1234.5 s, account 0.1 s, operations 999.9 s,",
      "    parquet 0.1 s",
    ]);
  });

  test("counted reads the digits of a printed count", () => {
    expect([counted(1, "call"), counted("1", "call"), counted("      1", "call")]).toEqual([
      "1 call",
      "1 call",
      "      1 call",
    ]);
    expect([counted(0, "invoice"), counted("1,001", "line"), counted(2, "API token")]).toEqual([
      "0 invoices",
      "1,001 lines",
      "2 API tokens",
    ]);
  });
});
