import { describe, expect, test } from "vitest";
import type { Alert } from "../../src/check/alert.js";
import { alertJson, alertLine, roundedCents } from "../../src/check/alert.js";
import { isDue } from "../../src/check/repeatRule.js";
import { loadCheckConfig } from "../../src/config/checkConfig.js";
import { parseRulesFile } from "../../src/config/checkRules.js";

describe("the rules file", () => {
  test("every rule, comments, quotes and defaults", () => {
    const rules = parseRulesFile(
      [
        "# nightly",
        "",
        "budget usd=500 actual=75",
        "spike factor=4",
        'token-budget label="CI \\"main\\" pipeline" usd=20.5',
        "endpoint-budget endpoint=/ai/text-to-cad/{output_format} usd=100",
        "member-budget member=alice@example.com usd=50",
        "runway days=7",
        "invoice-difference",
        "pending days=45",
        "  stale hours=26  ",
      ].join("\n"),
      "check.conf",
    );
    expect(rules).toEqual({
      budget: { usd: "500", actualPercent: "75", forecastPercent: "100" },
      spike: { factor: "4", minUsd: "10", baseline: "weekday" },
      subjectBudgets: [
        { kind: "token", subject: 'CI "main" pipeline', usd: "20.5" },
        { kind: "endpoint", subject: "/ai/text-to-cad/{output_format}", usd: "100" },
        { kind: "member", subject: "alice@example.com", usd: "50" },
      ],
      runwayDays: "7",
      invoiceDifferenceUsd: "0",
      pendingDays: "45",
      staleHours: "26",
    });
  });

  test.each([
    ["budgett usd=5", 'check.conf line 2: unknown rule "budgett"'],
    ["budget actual=80", "check.conf line 2: budget: usd is required"],
    [
      "budget usd=1e3",
      'check.conf line 2: budget: usd must be an amount of USD such as 500 or 12.50, got "1e3"',
    ],
    ["budget usd=-5", 'budget: usd must be an amount of USD such as 500 or 12.50, got "-5"'],
    ["budget usd=5.1234567", "budget: usd must be an amount of USD"],
    [
      "spike factor=4 baseline=monday",
      'check.conf line 2: spike: baseline must be weekday or 28d, got "monday"',
    ],
    ["stale hour=26", "check.conf line 2: stale: unknown field hour; it takes hours"],
    ["runway days=7 days=8", "check.conf line 2: runway: days is given twice"],
    ["runway 7", 'check.conf line 2: runway: expected key=value, got "7"'],
    ['token-budget label="open usd=5', "check.conf line 2: token-budget: expected key=value"],
  ])("%s: %s", (line, message) => {
    expect(() => parseRulesFile(`# first\n${line}\n`, "check.conf")).toThrow(message);
  });

  test.each([
    "2026-02-29",
    "2026-04-31",
    "2026-13-01",
    "2026-02-28T24:00:00Z",
    "2026-02-28T23:60:00Z",
    "2026-02-28T06:00:00",
    "2026-02-28T06:00:00+25:00",
  ])("--now %s, an impossible or zone-less instant, is refused", (now) => {
    expect(() => loadCheckConfig({ flags: { staleHours: "26", now }, env: {} })).toThrow(
      `--now expects a real UTC day YYYY-MM-DD or an instant such as 2026-10-15T06:00:00Z, got "${now}"`,
    );
  });

  test.each([
    ["2028-02-29", "2028-02-29T00:00:00.000Z"],
    ["2026-10-15T06:30Z", "2026-10-15T06:30:00.000Z"],
    ["2026-10-15T23:59:59.5+02:00", "2026-10-15T21:59:59.500Z"],
  ])("--now %s is %s", (now, expected) => {
    expect(loadCheckConfig({ flags: { staleHours: "26", now }, env: {} }).now?.toISOString()).toBe(expected);
  });

  test("a flag replaces the file's rule; --budget-actual alone needs a budget; --now is checked", () => {
    const config = loadCheckConfig({
      flags: { rules: "c.conf", budget: "900", staleHours: "30", now: "2026-10-15" },
      env: {},
      rulesText: "budget usd=500 forecast=90\nstale hours=26\n",
    });
    expect(config.rules.budget).toEqual({ usd: "900", actualPercent: "80", forecastPercent: "100" });
    expect(config.rules.staleHours).toBe("30");
    expect(config.now?.toISOString()).toBe("2026-10-15T00:00:00.000Z");
    expect(() => loadCheckConfig({ flags: { budgetActual: "50" }, env: {} })).toThrow(
      "--budget-actual and --budget-forecast need --budget",
    );
    expect(() => loadCheckConfig({ flags: { staleHours: "26", now: "yesterday" }, env: {} })).toThrow(
      "--now expects a real UTC day",
    );
    expect(() => loadCheckConfig({ flags: { budget: "12,50" }, env: {} })).toThrow(
      "--budget must be an amount",
    );
  });
});

describe("reported once a day unless the value moves by more than the step", () => {
  const alert = (value: string): Alert => ({
    rule: "budget-forecast",
    subject: "account",
    value,
    threshold: "500.000000",
    period: "2026-10",
    unit: "usd",
    note: "",
  });
  const reported = (value: string, at: string) => ({
    rule: "budget-forecast",
    subject: "account",
    period: "2026-10",
    value,
    reportedAt: new Date(at),
  });
  const NOW = new Date("2026-10-15T18:00:00Z");

  test.each([
    ["never reported", "600.000000", undefined, true],
    [
      "reported earlier today, same value",
      "600.000000",
      reported("600.000000", "2026-10-15T02:00:00Z"),
      false,
    ],
    ["moved 9.9%", "659.400000", reported("600.000000", "2026-10-15T02:00:00Z"), false],
    ["moved 10.1%", "660.600000", reported("600.000000", "2026-10-15T02:00:00Z"), true],
    ["moved down 10.1%", "539.400000", reported("600.000000", "2026-10-15T02:00:00Z"), true],
    ["reported yesterday, same value", "600.000000", reported("600.000000", "2026-10-14T23:59:00Z"), true],
    ["from 0", "0.010000", reported("0.000000", "2026-10-15T02:00:00Z"), true],
    ["not a number", "never", reported("never", "2026-10-15T02:00:00Z"), false],
  ] as const)("%s", (_, value, previous, due) => {
    expect(isDue(alert(value), previous, NOW, "10")).toBe(due);
  });

  test.each([
    ["2055.476", "2,055.48"],
    ["2055.475", "2,055.48"],
    ["2055.465", "2,055.46"],
    ["2055.465001", "2,055.47"],
    ["0.125", "0.12"],
    ["0.135", "0.14"],
    ["999.995", "1,000.00"],
    ["-1.005", "-1.00"],
    ["-1.015", "-1.02"],
    ["-0.004", "0.00"],
    ["7", "7.00"],
    ["7.5", "7.50"],
  ])("%s USD is %s to the cent, half to even", (exact, cents) => {
    expect(roundedCents(exact)).toBe(cents);
  });

  test("an amount in the note is printed as the value is: to the cent for people, exact in JSON", () => {
    const a = {
      ...alert("12345.678999"),
      note: "100% of the {budget} budget; range {low} to {high}",
      amounts: { budget: "500.000000", low: "3311.120000", high: "3859.704051" },
    };
    expect(alertLine(a)).toBe(
      "budget-forecast: account, 2026-10: 12,345.68 USD reaches 500.00 USD (100% of the 500.00 USD budget; range 3,311.12 USD to 3,859.70 USD)",
    );
    expect(JSON.parse(alertJson(a))).toMatchObject({
      value: "12345.678999",
      threshold: "500.000000",
      note: "100% of the 500.000000 budget; range 3311.120000 to 3859.704051",
    });
  });

  test("the people line shows no terminal control the API sent in a subject or currency", () => {
    const a = { ...alert("1.000000"), subject: "invoice \u001b[2JX", unit: "e\u0007ur" };
    expect([...alertLine(a)].filter((ch) => ch.charCodeAt(0) < 0x20)).toEqual([]);
    expect(JSON.parse(alertJson(a)).subject).toBe("invoice \u001b[2JX");
  });
});
