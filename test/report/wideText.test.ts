import { describe, expect, test } from "vitest";
import { ellipsis, padEndTo, textWidth, wrapLine } from "../../src/log/terminalText.js";
import type { ReportFigures } from "../../src/report/figures.js";
import { renderTerminal } from "../../src/report/terminal.js";

/**
 * Names as people write them: CJK characters take two terminal columns, an emoji (a ZWJ sequence
 * included) two, a combining accent none. Aligned terminal tables count display columns, so such a
 * name keeps every column of its table in line and every line within 80 columns.
 */

/**
 * 8 columns each: four CJK characters (4 code points); "Ali " and two emoji, a ZWJ sequence of three
 * code points and a thumb with a skin tone of two (9 code points).
 */
const CJK = "山田太郎";
const EMOJI = "Ali 👩‍💻👍🏽";
const ASCII = "Jo Smith";
/** A CJK name far wider than a line: 60 characters, 120 columns. */
const LONG_CJK = "長".repeat(60);

function figures(): ReportFigures {
  const member = (user_id: string, name: string, cost_usd: string, calls: number) => ({
    user_id,
    name,
    role: null,
    calls,
    cost_usd,
  });
  return {
    database: "/tmp/zoo_usage.duckdb",
    generated_at: "2026-11-01T00:00:00.000000Z",
    period: {
      from: null,
      to: null,
      first_day: "2026-10-01",
      last_day: "2026-10-03",
      days_with_calls: 3,
      first_call_at: "2026-10-01T00:00:00.000000Z",
      last_call_at: "2026-10-03T00:00:00.000000Z",
    },
    totals: { calls: 30, priced_calls: 30, pending_calls: 0, failed_calls: 0, cost_usd: "61.500000" },
    recent: { first_day: "2026-10-01", last_day: "2026-10-03", calls: 30, cost_usd: "61.500000" },
    days: [],
    months: [],
    endpoints: {
      templates: 3,
      top: [CJK, EMOJI, ASCII].map((name, i) => ({
        rank: i + 1,
        endpoint_template: `/${name}`,
        calls: 10,
        priced_calls: 10,
        cost_usd: `${20 - i}.500000`,
      })),
      other: null,
    },
    emails_shown: false,
    most_expensive_calls: [],
    pending_billing: { calls: 0, cost_usd_so_far: "0.000000", oldest_created_at: null },
    rejects: { records: 0, latest_rejected_at: null, reasons: [] },
    own_calls: null,
    operations: {
      by_type_and_status: {
        scope: "stored_operations",
        first_day: "2026-09-01",
        last_day: "2026-10-31",
        // Types of 8 columns and statuses of 4, in every script: the rows are as wide as each other.
        rows: [
          [CJK, "完了"],
          [EMOJI, "done"],
          [ASCII, "🚀ok"],
        ].map(([operation_type, status], i) => ({
          operation_type: operation_type ?? null,
          status: status ?? null,
          operations: 10,
          cost_usd: `${3 - i}.000000`,
        })),
      },
      billed_failed: { operations: 0, cost_usd: "0.000000", most_expensive: [] },
    },
    invoices: null,
    credits: null,
    spenders: {
      per_member: [
        member("u-1", CJK, "30.500000", 10),
        member("u-2", EMOJI, "20.000000", 10),
        member("u-3", ASCII, "10.000000", 9),
        member("u-4", LONG_CJK, "1.000000", 1),
      ],
      per_token_label: [
        {
          match_status: "matched",
          token_kind: "api_token",
          token_label: "ci",
          calls: 30,
          cost_usd: "61.500000",
        },
      ],
      token_match: { calls: 30, matched_calls: 30, ambiguous_calls: 0, unmatched_calls: 0 },
    },
  };
}

/** The lines from `title` up to the next blank line or unindented line. */
function block(text: string, title: string): string[] {
  const lines = text.split("\n");
  const start = lines.findIndex((line) => line.startsWith(title));
  expect(start, title).toBeGreaterThanOrEqual(0);
  const rest = lines.slice(start + 1);
  const end = rest.findIndex((line) => !line.startsWith("  "));
  return end < 0 ? rest : rest.slice(0, end);
}

describe("terminal tables measure display columns", () => {
  test("the names take the columns a terminal gives them", () => {
    expect([CJK, EMOJI, ASCII].map(textWidth)).toEqual([8, 8, 8]);
    expect([[...CJK].length, [...EMOJI].length]).toEqual([4, 9]);
    // A combining accent takes no column; a flag (two regional indicators) two.
    expect(textWidth("e\u0301")).toBe(1);
    expect(textWidth("🇯🇵")).toBe(2);
    expect(padEndTo(CJK, 10)).toBe(`${CJK}  `);
  });

  test("cutting keeps whole characters and never passes the width", () => {
    expect(ellipsis(LONG_CJK, 10)).toBe(`${"長".repeat(4)}…`);
    expect(textWidth(ellipsis(LONG_CJK, 10))).toBe(9);
    expect(ellipsis(`${EMOJI}${EMOJI}`, 12)).toBe("Ali 👩‍💻👍🏽Ali…");
    // Neither the ZWJ sequence nor the skin tone is cut from its emoji.
    expect(ellipsis(EMOJI, 7)).toBe("Ali 👩‍💻…");
    expect(ellipsis(EMOJI, 6)).toBe("Ali …");
    const lines = wrapLine(`  ${LONG_CJK}`, "    ", { breakWords: true });
    expect(lines.map(textWidth).every((width) => width <= 80)).toBe(true);
    expect(lines.join("").replace(/ /g, "")).toBe(LONG_CJK);
  });

  test("a CJK and an emoji name keep every row of a table as wide as the others", () => {
    const text = renderTerminal(figures());
    // The data rows (the title may wrap onto a line of its own before the table).
    const operations = block(text, "async operations by type and status").filter((line) =>
      /^ +\d+\.\d{2} /.test(line),
    );
    expect(operations.length).toBe(3);
    const widths = operations.map(textWidth);
    expect(new Set(widths).size, operations.join("\n")).toBe(1);
    // The status column starts at the same column in every row.
    const statusAt = operations.map((line) => textWidth(line.slice(0, line.search(/完了|done|🚀ok/))));
    expect(new Set(statusAt).size, operations.join("\n")).toBe(1);

    const people = block(text, "spend per person");
    const named = people.filter((line) => /山田太郎|Ali|Jo Smith/.test(line));
    expect(named.length).toBe(3);
    expect(new Set(named.map(textWidth)).size, named.join("\n")).toBe(1);
    // The name far wider than the line is cut with an ellipsis to fit 80 columns, by display width.
    const long = people.find((line) => line.includes("長"));
    expect(long).toMatch(/長…$/);
    expect(textWidth(long ?? "")).toBeLessThanOrEqual(80);
    expect(textWidth(long ?? "")).toBeGreaterThanOrEqual(79);

    const endpoints = block(text, "top endpoint templates by cost").slice(1);
    expect(new Set(endpoints.map(textWidth)).size, endpoints.join("\n")).toBe(1);
    for (const line of text.split("\n")) expect(textWidth(line), line).toBeLessThanOrEqual(80);
  });
});
