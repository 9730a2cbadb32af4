import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type Case, COST, one, type Table, TEXT, value } from "./fixtures/checkCase.js";
import { FORMAT_CASES } from "./fixtures/formatCases.js";
import { evaluateHandMade } from "./fixtures/handMadeModel.js";
import { VALUE_CASES } from "./fixtures/valueCases.js";
import type { Check } from "./modelSchema.js";
import { checksOf, loadFocusModel } from "./rulesModel.js";
import { createTable, openTestDatabase, type TestDatabase } from "./testDatabase.js";

/**
 * Each check function of the model, as one rule over a table built to pass and one built to fail
 * (fixtures/formatCases.ts, fixtures/valueCases.ts), and what a check cannot run on.
 */

const CASES: Case[] = [...FORMAT_CASES, ...VALUE_CASES];

let database: TestDatabase;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database?.close());

async function runCase(rule: Case, data: Table) {
  await createTable(database.connection, "rows", data.columns, data.rows);
  const spec = { requirement: rule.requirement, condition: rule.condition };
  const results = await evaluateHandMade(database.connection, "rows", { "Test-C-001-M": spec });
  return results.get("Test-C-001-M");
}

describe("each check function", () => {
  test("of the model has its cases here (ColumnPresent below, CheckModelRule in ruleOutcomes)", () => {
    const model = loadFocusModel();
    const used = new Set(
      [...model.rules.values()].flatMap((rule) =>
        [...checksOf(rule.requirement), ...checksOf(rule.condition)].map((check) => check.CheckFunction),
      ),
    );
    const tested = new Set(
      CASES.flatMap((rule) => [
        ...checksOf(rule.requirement as Check),
        ...checksOf(rule.condition as Check | undefined),
      ]).map((check) => check.CheckFunction),
    );
    const untested = [...used].filter((name) => !tested.has(name));
    expect(untested.sort()).toEqual(["CheckModelRule", "ColumnPresent"]);
  });

  test.each(CASES)("$name passes its passing table", async (rule) => {
    expect(await runCase(rule, rule.pass)).toMatchObject({ status: "pass", violations: 0 });
  });

  test.each(CASES)("$name fails its failing table, with the rows that break it counted", async (rule) => {
    const result = await runCase(rule, rule.fail);
    expect(result).toMatchObject({ status: "fail", violations: rule.violations });
  });
});

describe("what a check cannot run on", () => {
  test("a column the relation lacks fails the rule, in the requirement or only in the condition", async () => {
    await createTable(
      database.connection,
      "rows",
      [{ name: "BilledCost", type: COST }],
      [{ BilledCost: "1" }],
    );
    const results = await evaluateHandMade(database.connection, "rows", {
      "Gone-C-001-M": { requirement: value("CheckNotValue", "ListCost", null) },
      "Gone-C-002-M": {
        requirement: value("CheckNotValue", "BilledCost", null),
        condition: value("CheckValue", "ChargeCategory", "Usage"),
      },
    });
    expect(results.get("Gone-C-001-M")).toMatchObject({
      status: "fail",
      reason: "missing column(s): ListCost",
    });
    expect(results.get("Gone-C-002-M")).toMatchObject({
      status: "fail",
      reason: "missing column(s): ChargeCategory",
    });
    expect(results.get("Gone-C-001-M")?.violations).toBeUndefined();
  });

  test("a query DuckDB refuses fails the rule with DuckDB's message", async () => {
    await createTable(
      database.connection,
      "rows",
      [{ name: "ListUnitPrice", type: TEXT }],
      [{ ListUnitPrice: "abc" }],
    );
    const results = await evaluateHandMade(database.connection, "rows", {
      "Refused-C-001-M": { requirement: value("CheckGreaterOrEqualThanValue", "ListUnitPrice", 0) },
    });
    expect(results.get("Refused-C-001-M")?.status).toBe("fail");
    expect(results.get("Refused-C-001-M")?.reason).toMatch(/^query failed: Binder Error: Cannot compare/);
  });

  test("ColumnPresent reads the relation's columns, not information_schema", async () => {
    await createTable(database.connection, "rows", [{ name: "BilledCost", type: COST }], []);
    const results = await evaluateHandMade(database.connection, "rows", {
      "CostAndUsage-D-001-M": { requirement: one("ColumnPresent", "BilledCost"), function: "Presence" },
      "CostAndUsage-D-002-M": { requirement: one("ColumnPresent", "ListCost"), function: "Presence" },
    });
    expect(results.get("CostAndUsage-D-001-M")).toMatchObject({ status: "pass" });
    expect(results.get("CostAndUsage-D-002-M")).toMatchObject({
      status: "fail",
      reason: "column ListCost is absent",
    });
  });
});
