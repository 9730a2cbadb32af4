import path from "node:path";
import { DuckDBInstance, quotedString } from "@duckdb/node-api";
import { checkFocusConformance, type FocusRuleResult } from "../focus/conformance.js";

/**
 * The ApplicabilityCriteria of the FinOps Foundation's FOCUS 1.2 rules model that Zoo declares it
 * meets (docs/focus.md says why each is or is not).
 */
export const FOCUS_CRITERIA: ReadonlySet<string> = new Set([
  "USAGE_MEASUREMENT_SUPPORTED",
  "MULTIPLE_BILLING_ACCOUNT_TYPES_SUPPORTED",
]);

/**
 * The FOCUS rules over a warehouse's view focus_costs and over the Parquet dataset `export --focus`
 * wrote under `out`. The view is copied into a table of an in-memory database first, its types
 * kept: each of the rules that read it would otherwise compute the whole ledger again.
 */
export async function focusConformance(
  db: string,
  out: string,
): Promise<{ view: FocusRuleResult[]; parquet: FocusRuleResult[] }> {
  const instance = await DuckDBInstance.create(":memory:");
  const connection = await instance.connect();
  try {
    await connection.run("SET TimeZone = 'UTC'");
    await connection.run(`ATTACH ${quotedString(db)} AS warehouse (READ_ONLY)`);
    await connection.run("CREATE TABLE memory.focus_view AS SELECT * FROM warehouse.focus_costs");
    await connection.run("DETACH warehouse");
    const options = { criteria: FOCUS_CRITERIA };
    const files = quotedString(path.join(out, "focus", "*", "*.parquet"));
    return {
      view: await checkFocusConformance(connection, "focus_view", options),
      parquet: await checkFocusConformance(
        connection,
        `read_parquet(${files}, hive_partitioning = true)`,
        options,
      ),
    };
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}
