import path from "node:path";
import { describe, expect, test } from "vitest";
import { isIsoDay, loadReportConfig } from "../../src/config/reportConfig.js";
import { ZooUsageError } from "../../src/errors.js";
import { printable } from "../../src/log/printable.js";
import { addDays, dayRange, trailingWindow } from "../../src/report/calendar.js";
import { niceTicks } from "../../src/report/chartAxis.js";
import { escapeHtml } from "../../src/report/escapeHtml.js";
import { toJson } from "../../src/report/runReport.js";
import { sparkline } from "../../src/report/sparkline.js";
import { barChart, columnChart } from "../../src/report/svgCharts.js";
import { groupDigits } from "../../src/report/usd.js";

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
    });
    expect(loadReportConfig({ flags: {}, env: { ZOO_USAGE_DB: "/x.duckdb" } }).dbPath).toBe("/x.duckdb");
    expect(loadReportConfig({ flags: { db: "a.duckdb" }, env: { ZOO_USAGE_DB: "/x.duckdb" } }).dbPath).toBe(
      path.resolve("a.duckdb"),
    );
  });

  test.each([
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
      days: ["2026-10-01", "2026-10-02", "2026-10-03"],
      unit: "USD",
      series: [{ name: hostile, color: "#000", values: [1, 0, 3], texts: ["1.000000", "0", "3.000000"] }],
    });
    expect(svg.match(/class="mark"/g)?.length).toBe(2);
    expect(svg).not.toContain("<script>");
    expect(svg).toContain("&lt;/svg&gt;&lt;script&gt;");
    expect(svg.startsWith("<svg")).toBe(true);
    expect(svg.match(/<svg/g)?.length).toBe(1);
  });

  test("bars with escaped labels; empty data says so", () => {
    const svg = barChart({
      title: "t",
      rows: [{ label: hostile, value: 2, text: "2 USD", color: "#000", title: hostile }],
    });
    expect(svg.match(/class="mark"/g)?.length).toBe(1);
    expect(svg).not.toContain("<script>");
    expect(barChart({ title: "t", rows: [] })).toContain("no data in this period");
    expect(columnChart({ title: "t", days: [], unit: "USD", series: [] })).not.toContain('class="mark"');
  });
});
