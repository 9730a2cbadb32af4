import type { DuckDBConnection } from "@duckdb/node-api";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { evaluateRules } from "./evaluateRules.js";
import { evaluateHandMade, handMadeModel, type RuleSpec } from "./fixtures/handMadeModel.js";
import { createTable, openTestDatabase, type TestDatabase } from "./testDatabase.js";

/**
 * How rules combine, skip and depend on each other: Composites over CheckModelRule items, the
 * skip reasons, applicability, Dependencies and the Conditions a Composite passes down.
 */

let database: TestDatabase;
beforeAll(async () => {
  database = await openTestDatabase();
  await createTable(
    database.connection,
    "rows",
    [
      { name: "A", type: "VARCHAR" },
      { name: "B", type: "VARCHAR" },
    ],
    [
      { A: "x", B: "kept" },
      { A: null, B: "dropped" },
    ],
  );
});
afterAll(() => database?.close());

const notNull = (column: string): RuleSpec => ({
  requirement: { CheckFunction: "CheckNotValue", ColumnName: column, Value: null },
});
const composite = (operator: "AND" | "OR", ...ids: string[]): RuleSpec => ({
  function: "Composite",
  requirement: {
    CheckFunction: operator,
    Items: ids.map((id) => ({ CheckFunction: "CheckModelRule", ModelRuleId: id })),
  },
  dependencies: ids,
});
const PASSES: RuleSpec = notNull("B");
const FAILS: RuleSpec = notNull("A");
const DYNAMIC: RuleSpec = {};

const run = (rules: Record<string, RuleSpec>, criteria: ReadonlySet<string> = new Set()) =>
  evaluateHandMade(database.connection, "rows", rules, criteria);

describe("Composites", () => {
  test.each([
    ["AND", ["Pass-C-001-M", "Pass-C-002-M"], "pass", undefined],
    ["AND", ["Pass-C-001-M", "Fail-C-001-M"], "fail", "failed: Fail-C-001-M"],
    ["OR", ["Pass-C-001-M", "Fail-C-001-M"], "pass", undefined],
    ["OR", ["Fail-C-001-M", "Fail-C-002-M"], "fail", "none passes: Fail-C-001-M, Fail-C-002-M"],
    ["AND", ["Pass-C-001-M", "Dynamic-C-001-M"], "pass", undefined],
    ["OR", ["Dynamic-C-001-M", "Fail-C-001-M"], "fail", "none passes: Fail-C-001-M"],
    ["AND", ["Dynamic-C-001-M", "May-C-001-O"], "skipped", "all items skipped"],
  ] as const)("%s of %j: %s", async (operator, items, status, reason) => {
    const results = await run({
      "Pass-C-001-M": PASSES,
      "Pass-C-002-M": PASSES,
      "Fail-C-001-M": FAILS,
      "Fail-C-002-M": FAILS,
      "Dynamic-C-001-M": DYNAMIC,
      "May-C-001-O": { ...PASSES, keyword: "MAY" },
      "Top-C-000-M": composite(operator, ...items),
    });
    expect(results.get("Top-C-000-M")).toMatchObject(reason === undefined ? { status } : { status, reason });
  });

  test("a rule named by many Composites runs one query", async () => {
    let queries = 0;
    const counting = new Proxy(database.connection, {
      get(target, property) {
        if (property === "runAndReadAll") {
          return (sql: string) => {
            queries += 1;
            return target.runAndReadAll(sql);
          };
        }
        const member: unknown = Reflect.get(target, property);
        return typeof member === "function" ? member.bind(target) : member;
      },
    }) as DuckDBConnection;
    const model = handMadeModel({
      "Leaf-C-001-M": PASSES,
      "One-C-000-M": composite("AND", "Leaf-C-001-M"),
      "Two-C-000-M": composite("OR", "Leaf-C-001-M"),
      "Three-C-000-M": composite("AND", "One-C-000-M", "Two-C-000-M", "Leaf-C-001-M"),
    });
    const results = await evaluateRules(counting, '"rows"', model, new Set());
    expect(results.map((result) => result.status)).toEqual(["pass", "pass", "pass", "pass"]);
    // One DESCRIBE of the relation, one query for the leaf.
    expect(queries).toBe(2);
  });

  test("a Composite's Condition restricts the rows of the rules it depends on", async () => {
    const results = await run({
      "Leaf-C-001-M": FAILS,
      "When-C-000-M": {
        ...composite("AND", "Leaf-C-001-M"),
        condition: { CheckFunction: "CheckValue", ColumnName: "B", Value: "kept" },
      },
    });
    expect(results.get("Leaf-C-001-M")).toMatchObject({ status: "pass", violations: 0 });
  });
});

describe("skips", () => {
  test("a Dynamic rule, a MAY rule, and a rule whose criteria are not declared", async () => {
    const results = await run({
      "Dynamic-C-001-M": DYNAMIC,
      "May-C-001-O": { ...FAILS, keyword: "MAY" },
      "Tagged-C-001-C": { ...FAILS, criteria: ["TAGGING_SUPPORTED", "REGION_SUPPORTED"] },
    });
    expect(results.get("Dynamic-C-001-M")).toMatchObject({
      status: "skipped",
      reason: "dynamic rule: the model gives no check function",
    });
    expect(results.get("May-C-001-O")).toMatchObject({ status: "skipped", reason: "MAY: not enforced" });
    expect(results.get("Tagged-C-001-C")).toMatchObject({
      status: "skipped",
      reason: "not applicable: TAGGING_SUPPORTED or REGION_SUPPORTED not declared",
    });
  });

  test("a rule applies when ANY of its criteria is declared", async () => {
    const results = await run(
      { "Tagged-C-001-C": { ...FAILS, criteria: ["TAGGING_SUPPORTED", "REGION_SUPPORTED"] } },
      new Set(["REGION_SUPPORTED"]),
    );
    expect(results.get("Tagged-C-001-C")?.status).toBe("fail");
  });

  test("every rule of a column whose presence rule does not apply is not applicable", async () => {
    const results = await run({
      "CostAndUsage-D-064-C": {
        function: "Presence",
        reference: "A",
        criteria: ["TAGGING_SUPPORTED"],
        requirement: { CheckFunction: "ColumnPresent", ColumnName: "A" },
      },
      "A-C-001-M": FAILS,
      "B-C-001-M": PASSES,
    });
    expect(results.get("A-C-001-M")).toMatchObject({
      status: "skipped",
      reason: "not applicable: column A (CostAndUsage-D-064-C): TAGGING_SUPPORTED not declared",
    });
    expect(results.get("B-C-001-M")?.status).toBe("pass");
  });

  test("a rule whose dependency is skipped is skipped; one whose dependency fails still runs", async () => {
    const results = await run({
      "Dynamic-C-001-M": DYNAMIC,
      "Fail-C-001-M": FAILS,
      "After-C-001-M": { ...PASSES, dependencies: ["Dynamic-C-001-M"] },
      "After-C-002-M": { ...PASSES, dependencies: ["Fail-C-001-M"] },
    });
    expect(results.get("After-C-001-M")).toMatchObject({
      status: "skipped",
      reason: "dependency skipped: Dynamic-C-001-M",
    });
    expect(results.get("After-C-002-M")?.status).toBe("pass");
  });

  test("a criterion the model does not define is refused", async () => {
    await expect(run({ "Pass-C-001-M": PASSES }, new Set(["USAGE_MEASURMENT_SUPPORTED"]))).rejects.toThrow(
      "unknown ApplicabilityCriteria: USAGE_MEASURMENT_SUPPORTED",
    );
  });

  test("a rule that depends on itself through others is refused", async () => {
    const loop = { ...PASSES };
    await expect(
      run({
        "Loop-C-001-M": { ...loop, dependencies: ["Loop-C-002-M"] },
        "Loop-C-002-M": { ...loop, dependencies: ["Loop-C-001-M"] },
      }),
    ).rejects.toThrow("depends on itself");
  });
});
