import path from "node:path";
import { describe, expect, test } from "vitest";
import { isIsoDay, isIsoMonth, lastDayOf, loadReportConfig } from "../../src/config/reportConfig.js";
import { ZooUsageError } from "../../src/errors.js";
import { printable } from "../../src/log/printable.js";
import { addDays, dayRange, isWholeMonth, trailingWindow } from "../../src/report/calendar.js";
import { niceTicks, tickLabel } from "../../src/report/chartAxis.js";
import { escapeHtml } from "../../src/report/escapeHtml.js";
import { barChart } from "../../src/report/htmlBars.js";
import { exactTable } from "../../src/report/htmlExactTable.js";
import { toJson } from "../../src/report/runReport.js";
import { sparkline } from "../../src/report/sparkline.js";
import { columnChart } from "../../src/report/svgCharts.js";
import { centsHeadline, groupDigits } from "../../src/report/usd.js";

describe("calendar days (UTC)", () => {
  test.each([
    ["2026-10-01", true],
    ["2024-02-29", true],
    ["2026-02-29", false],
    ["2026-13-01", false],
    ["2026-1-01", false],
    ["2026-10-01T00:00:00Z", false],
    ["yesterday", false],
    ["", false],
  ])("isIsoDay(%j) is %s", (text, expected) => {
    expect(isIsoDay(text)).toBe(expected);
  });

  test.each([
    ["2026-10", true],
    ["2026-12", true],
    ["2026-13", false],
    ["2026-00", false],
    ["2026-1", false],
    ["2026-10-01", false],
    ["October", false],
  ])("isIsoMonth(%j) is %s", (text, expected) => {
    expect(isIsoMonth(text)).toBe(expected);
  });

  test.each([
    ["2024-02", "2024-02-29"],
    ["2026-02", "2026-02-28"],
    ["2000-02", "2000-02-29"],
    ["2100-02", "2100-02-28"],
    ["2026-12", "2026-12-31"],
    ["2027-01", "2027-01-31"],
    ["2026-04", "2026-04-30"],
  ])("the last day of %s is %s", (month, last) => {
    expect(lastDayOf(month)).toBe(last);
    expect(isWholeMonth(`${month}-01`, last)).toBe(true);
    expect(isWholeMonth(`${month}-02`, last)).toBe(false);
    expect(isWholeMonth(`${month}-01`, addDays(last, -1))).toBe(false);
  });

  test("ranges and windows cross month and year ends", () => {
    expect(addDays("2026-12-31", 1)).toBe("2027-01-01");
    expect(dayRange("2026-02-27", "2026-03-02")).toEqual([
      "2026-02-27",
      "2026-02-28",
      "2026-03-01",
      "2026-03-02",
    ]);
    expect(dayRange("2026-03-02", "2026-03-01")).toEqual([]);
    expect(trailingWindow("2026-10-31", 30, "2026-01-01")).toEqual({
      first: "2026-10-02",
      last: "2026-10-31",
    });
    expect(trailingWindow("2026-10-31", 30, "2026-10-20")).toEqual({
      first: "2026-10-20",
      last: "2026-10-31",
    });
  });
});

describe("report options", () => {
  test("defaults follow export: --db, then $ZOO_USAGE_DB, then ./zoo-usage/zoo_usage.duckdb", () => {
    expect(loadReportConfig({ flags: {}, env: {} })).toEqual({
      dbPath: path.resolve("./zoo-usage/zoo_usage.duckdb"),
      from: null,
      to: null,
      json: false,
      htmlPath: null,
      top: 10,
      showEmail: false,
    });
    expect(loadReportConfig({ flags: { showEmail: true }, env: {} }).showEmail).toBe(true);
    expect(loadReportConfig({ flags: {}, env: { ZOO_USAGE_DB: "/x.duckdb" } }).dbPath).toBe("/x.duckdb");
    expect(loadReportConfig({ flags: { db: "a.duckdb" }, env: { ZOO_USAGE_DB: "/x.duckdb" } }).dbPath).toBe(
      path.resolve("a.duckdb"),
    );
  });

  test.each([
    [{ month: "2026-10" }, "2026-10-01", "2026-10-31"],
    [{ month: "2024-02" }, "2024-02-01", "2024-02-29"],
    [{ month: "2026-02" }, "2026-02-01", "2026-02-28"],
    [{ from: "2026-12", to: "2027-01" }, "2026-12-01", "2027-01-31"],
    [{ from: "2026-10" }, "2026-10-01", null],
    [{ to: "2026-10" }, null, "2026-10-31"],
    [{ from: "2026-10-15", to: "2026-11" }, "2026-10-15", "2026-11-30"],
    [{ from: "2026-10", to: "2026-10" }, "2026-10-01", "2026-10-31"],
  ])("%j is the period %s .. %s", (flags, from, to) => {
    const config = loadReportConfig({ flags, env: {} });
    expect([config.from, config.to]).toEqual([from, to]);
  });

  test.each([
    [{ month: "2026-13" }, /--month expects a UTC calendar month written YYYY-MM, got "2026-13"/],
    [{ month: "2026-10-01" }, /--month expects a UTC calendar month/],
    [{ month: "2026-10", from: "2026-10-01" }, /--month cannot be combined with --from or --to/],
    [{ month: "2026-10", to: "2026-10" }, /--month cannot be combined with --from or --to/],
    [{ from: "2026-1" }, /--from expects a UTC calendar day written YYYY-MM-DD, got "2026-1"/],
    [{ to: "2026-11", from: "2026-12" }, /--from 2026-12-01 is after --to 2026-11-30/],
    [{ from: "2026-02-30" }, /--from expects a UTC calendar day/],
    [{ to: "10/01/2026" }, /--to expects a UTC calendar day/],
    [{ from: "2026-10-05", to: "2026-10-01" }, /--from 2026-10-05 is after --to 2026-10-01/],
    [{ top: 0 }, /--top/],
    [{ html: " " }, /--html needs a file name/],
  ])("%j is refused with config.invalid", (flags, message) => {
    let error: unknown;
    try {
      loadReportConfig({ flags, env: {} });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ZooUsageError);
    expect((error as ZooUsageError).code).toBe("config.invalid");
    expect((error as ZooUsageError).message).toMatch(message);
    expect((error as ZooUsageError).hint).toBeTruthy();
  });
});

describe("text helpers", () => {
  test("money keeps its digits; only thousands are grouped", () => {
    expect(groupDigits("54207.687837")).toBe("54,207.687837");
    expect(groupDigits("0.000001")).toBe("0.000001");
    expect(groupDigits("123456789012.000000")).toBe("123,456,789,012.000000");
    expect(groupDigits("-1000")).toBe("-1,000");
  });

  test.each([
    ["116634.921986", "$116,634.92"],
    ["116634.925000", "$116,634.92"],
    ["116634.935000", "$116,634.94"],
    ["116634.925001", "$116,634.93"],
    ["116634.924999", "$116,634.92"],
    ["0.000000", "$0.00"],
    ["0.004999", "$0.00"],
    ["0.015000", "$0.02"],
    ["999.995", "$1,000.00"],
    ["12", "$12.00"],
    ["-1.005", "-$1.00"],
    ["-1.015", "-$1.02"],
    ["-0.001", "$0.00"],
    ["123456789012.999999", "$123,456,789,013.00"],
  ])("centsHeadline(%j) is %s: to the cent, half to even as the tables, no float", (decimal, text) => {
    expect(centsHeadline(decimal)).toBe(text);
  });

  test.each([
    [0.25, "0.25"],
    [1500, "1.5k"],
    [2_500_000, "2.5M"],
    [2_000_000_000, "2B"],
  ])("tickLabel(%d) is %s", (value, label) => {
    expect(tickLabel(value)).toBe(label);
  });

  test("a wrapping table cell breaks paths after / and addresses before @, escaped first", () => {
    const html = exactTable(["a", "b"], [["/x/<y>", "n@example.com"]], ["wrap", "nowrap"]);
    expect(html).toContain('<td class="wrap key" data-label="a">/<wbr>x/<wbr>&lt;y&gt;</td>');
    // Only wrapping columns get break opportunities.
    expect(html).toContain('<td class="nowrap" data-label="b">n@example.com</td>');
    expect(html.startsWith('<div class="scroll"><table class="stack">')).toBe(true);
  });

  test("toJson turns a stray bigint into text instead of throwing", () => {
    expect(JSON.parse(toJson({ n: 9007199254740993n }))).toEqual({ n: "9007199254740993" });
  });

  test("sparkline: one character per day, empty days distinct from small ones", () => {
    expect(sparkline([0, 1, 4, 8])).toBe("·▁▄█");
    expect(sparkline([0.0001, 1000])).toBe("▁█");
    expect(sparkline([0, 0])).toBe("··");
  });

  test("escaping covers content and attributes; control characters never reach a terminal", () => {
    expect(escapeHtml(`<a href="x" onclick='y'>&</a>`)).toBe(
      "&lt;a href=&quot;x&quot; onclick=&#39;y&#39;&gt;&amp;&lt;/a&gt;",
    );
    expect(printable("/file\u001b[2J\u0007")).toBe("/file\uFFFD[2J\uFFFD");
  });

  test.each([
    [1234, 1250],
    [6, 6],
    [0.37, 0.4],
    [54207.69, 60000],
  ])("niceTicks(%d) starts at 0 and reaches the maximum (%d)", (max, last) => {
    const ticks = niceTicks(max);
    expect(ticks[0]).toBe(0);
    expect(ticks.at(-1)).toBeCloseTo(last);
    expect(ticks.length).toBeLessThanOrEqual(8);
  });
});

describe("SVG charts", () => {
  const hostile = `</svg><script>alert(1)</script>`;

  test("a column per day, a mark per non-zero value, text escaped", () => {
    const svg = columnChart({
      title: hostile,
      columns: ["2026-10-01", "2026-10-02", "2026-10-03"],
      unit: "USD",
      series: [{ name: hostile, color: "#000", values: [1, 0, 3], texts: ["1.000000", "0", "3.000000"] }],
    });
    expect(svg.match(/class="mark"/g)?.length).toBe(2);
    expect(svg).not.toContain("<script>");
    expect(svg).toContain("&lt;/svg&gt;&lt;script&gt;");
    expect(svg.match(/<svg/g)?.length).toBe(1);
    // Its own scroll box, and a width that keeps its 12-unit text at 11 px at least.
    expect(svg.startsWith('<div class="scroll chart-box"><svg')).toBe(true);
    const [, viewWidth, minWidth] = /viewBox="0 0 (\d+) \d+".*min-width:(\d+)px/.exec(svg) ?? [];
    expect((Number(minWidth) / Number(viewWidth)) * 12).toBeGreaterThanOrEqual(11);
  });

  test("bars (HTML) with escaped labels; empty data says so", () => {
    const bars = barChart({
      title: "t",
      rows: [
        { label: hostile, value: 2, text: "2 USD", color: "#000", title: hostile },
        { label: "tiny", value: 0.000001, text: "0.000001 USD", color: "#000", title: "tiny" },
      ],
    });
    expect(bars.match(/class="mark"/g)?.length).toBe(2);
    expect(bars).toContain('style="width:100.00%');
    // A tiny value stays visible.
    expect(bars).toContain('style="width:0.30%');
    expect(bars).not.toContain("<script>");
    expect(barChart({ title: "t", rows: [] })).toContain("no data in this period");
    expect(columnChart({ title: "t", columns: [], unit: "USD", series: [] })).not.toContain('class="mark"');
  });
});
