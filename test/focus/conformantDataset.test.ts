import { mkdir, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { checkFocusConformance, type FocusRuleResult, failingRules, summaryLine } from "./conformance.js";
import { CONFORMANT_ROWS, FOCUS_COLUMNS } from "./fixtures/conformantCharges.js";
import { KEYWORDS } from "./modelSchema.js";
import { text } from "./sqlQuoting.js";
import { createTable, openTestDatabase, type TableRow, type TestDatabase } from "./testDatabase.js";

/**
 * The hand-made dataset of fixtures/conformantCharges.ts breaks no rule, over a table and over the
 * Parquet file DuckDB writes of it; each error planted in one row is caught by the rule that says so.
 */

const CRITERIA = { criteria: new Set(["USAGE_MEASUREMENT_SUPPORTED"]) };

let database: TestDatabase;
let dir: string;
beforeAll(async () => {
  database = await openTestDatabase();
  dir = await mkdtemp(path.join(os.tmpdir(), "zoo-usage-focus-"));
});
afterAll(async () => {
  database?.close();
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
});

async function checkRows(rows: readonly TableRow[]): Promise<FocusRuleResult[]> {
  await createTable(database.connection, "focus_rows", FOCUS_COLUMNS, rows);
  return checkFocusConformance(database.connection, "focus_rows", CRITERIA);
}

const failedIds = (results: readonly FocusRuleResult[]) => failingRules(results, KEYWORDS).map((r) => r.id);

describe("the conformant dataset", () => {
  test("breaks no rule of any keyword", async () => {
    const results = await checkRows(CONFORMANT_ROWS);
    expect(failedIds(results)).toEqual([]);
    expect(summaryLine(results)).toBe("621 FOCUS rules: 157 pass, 0 fail, 464 skipped");
    const dataset = results.find((result) => result.id === "CostAndUsage-D-000-M");
    expect(dataset?.status).toBe("pass");
  });

  test("gets the same result from its Parquet copy in a hive partition", async () => {
    const table = await checkRows(CONFORMANT_ROWS);
    const partition = path.join(dir, "billing_period=2026-10");
    await mkdir(partition, { recursive: true });
    const file = path.join(partition, "part-0.parquet");
    await database.connection.run(`COPY focus_rows TO ${text(file)} (FORMAT parquet)`);
    const relation = `read_parquet(${text(path.join(dir, "*", "*.parquet"))}, hive_partitioning = true)`;
    const parquet = await checkFocusConformance(database.connection, relation, CRITERIA);
    expect(parquet).toEqual(table);
    // The partition column is there, and no rule minds it.
    const columns = await database.connection.runAndReadAll(`DESCRIBE SELECT * FROM ${relation}`);
    expect(columns.getRowObjectsJS().map((row) => row.column_name)).toContain("billing_period");
  });

  test("gets the same result over a few thousand rows", async () => {
    const table = await checkRows(CONFORMANT_ROWS);
    await database.connection.run(
      "CREATE OR REPLACE TABLE many_rows AS SELECT focus_rows.* FROM focus_rows, range(500)",
    );
    const many = await checkFocusConformance(database.connection, "many_rows", CRITERIA);
    expect(many).toEqual(table);
  });
});

/** The dataset with `change` made to its row `index`. */
function planted(index: number, change: TableRow): TableRow[] {
  return CONFORMANT_ROWS.map((row, i) => (i === index ? { ...row, ...change } : row));
}

/** Every planted error also fails the column's Composite and the dataset's two top Composites. */
const TOP = ["CostAndUsage-D-000-M", "CostAndUsage-D-002-M"];

describe("one planted error", () => {
  test.each([
    {
      error: "a null BilledCost",
      rows: planted(0, { BilledCost: null }),
      failed: [...TOP, "BilledCost-C-000-M", "BilledCost-C-003-M"],
    },
    {
      // The row is a Usage row with a ConsumedQuantity, which only Usage rows may have.
      error: "a ChargeCategory outside the allowed values",
      rows: planted(1, { ChargeCategory: "Refund" }),
      failed: [
        ...TOP,
        "ChargeCategory-C-000-M",
        "ChargeCategory-C-003-M",
        "ConsumedQuantity-C-000-C",
        "ConsumedQuantity-C-003-C",
        "ConsumedQuantity-C-004-C",
      ],
    },
    {
      error: "a lower-case currency",
      rows: planted(2, { BillingCurrency: "usd" }),
      failed: [...TOP, "BillingCurrency-C-000-M", "BillingCurrency-C-003-M", "BillingCurrency-C-006-M"],
    },
    {
      error: "a Tax row with a PricingQuantity",
      rows: planted(3, { PricingQuantity: "1", PricingUnit: "Units" }),
      failed: [...TOP, "PricingQuantity-C-000-M", "PricingQuantity-C-003-M", "PricingQuantity-C-004-C"],
    },
    {
      error: "a Tax row with a PricingQuantity and no PricingUnit",
      rows: planted(3, { PricingQuantity: "1" }),
      failed: [
        ...TOP,
        "PricingQuantity-C-000-M",
        "PricingQuantity-C-003-M",
        "PricingQuantity-C-004-C",
        "PricingUnit-C-000-M",
        "PricingUnit-C-004-C",
        "PricingUnit-C-006-C",
      ],
    },
  ])("$error fails exactly $failed", async ({ rows, failed }) => {
    const results = await checkRows(rows);
    expect(failedIds(results).sort()).toEqual([...failed].sort());
    const leaf = results.filter((r) => r.status === "fail" && r.violations !== undefined);
    expect(leaf.every((r) => r.violations === 1)).toBe(true);
  });

  test("a ChargePeriodEnd before its ChargePeriodStart fails nothing: only a Dynamic rule says it", async () => {
    const results = await checkRows(
      planted(0, { ChargePeriodStart: "2026-10-06T00:00:00Z", ChargePeriodEnd: "2026-10-05T00:00:00Z" }),
    );
    expect(failedIds(results)).toEqual([]);
    expect(results.find((r) => r.id === "ChargePeriodEnd-C-004-M")).toMatchObject({
      status: "skipped",
      reason: "dynamic rule: the model gives no check function",
    });
  });
});
