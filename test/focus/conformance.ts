import type { DuckDBConnection } from "@duckdb/node-api";
import { evaluateRules } from "./evaluateRules.js";
import { loadFocusModel } from "./rulesModel.js";

/**
 * FOCUS 1.2 conformance of a relation, rule by rule, by the FinOps Foundation validator's own rules
 * model (spec/focus/model-1.2.json). test/focus/README.md says where this follows the validator and
 * where it differs.
 */

export interface FocusRuleResult {
  /** The model's rule id, e.g. "BilledCost-C-003-M". */
  id: string;
  /** The column, attribute or dataset the rule is about. */
  reference: string;
  /** MUST, MUST NOT, SHOULD, SHOULD NOT, RECOMMENDED or MAY. */
  keyword: string;
  status: "pass" | "fail" | "skipped";
  /** Why it was skipped, or what failed. */
  reason?: string;
  /** Rows (groups, for CheckDistinctCount) that break a data check; absent for other rules. */
  violations?: number;
  /** The rule's text. */
  mustSatisfy: string;
}

/**
 * Every rule of the model over `relation`, the SQL text of a relation: a table or view name, or a
 * table function such as read_parquet(..., hive_partitioning = true). `criteria` are the
 * ApplicabilityCriteria the provider declares it meets; a name the model does not define throws.
 */
export async function checkFocusConformance(
  connection: DuckDBConnection,
  relation: string,
  options: { criteria: ReadonlySet<string> },
): Promise<FocusRuleResult[]> {
  return evaluateRules(connection, relation, loadFocusModel(), options.criteria);
}

/** The failed rules whose keyword is one of `keywords`, e.g. ["MUST", "MUST NOT"]. */
export function failingRules(
  results: readonly FocusRuleResult[],
  keywords: readonly string[],
): FocusRuleResult[] {
  return results.filter((result) => result.status === "fail" && keywords.includes(result.keyword));
}

/** One line for one rule: `SHOULD PricingUnit-C-003-O fail (2 rows break it): PricingUnit SHOULD ...`. */
export function formatRuleResult(result: FocusRuleResult): string {
  const why = result.reason === undefined ? "" : ` (${result.reason})`;
  return `${result.keyword} ${result.id} ${result.status}${why}: ${result.mustSatisfy}`;
}

/** One line for a whole run: how many rules pass, fail (by keyword) and are skipped. */
export function summaryLine(results: readonly FocusRuleResult[]): string {
  const count = (status: FocusRuleResult["status"]) => results.filter((r) => r.status === status).length;
  const failedBy = new Map<string, number>();
  for (const result of failingRules(results, [...new Set(results.map((r) => r.keyword))])) {
    failedBy.set(result.keyword, (failedBy.get(result.keyword) ?? 0) + 1);
  }
  const byKeyword = [...failedBy].map(([keyword, n]) => `${keyword} ${n}`).join(", ");
  return `${results.length} FOCUS rules: ${count("pass")} pass, ${count("fail")} fail${byKeyword === "" ? "" : ` (${byKeyword})`}, ${count("skipped")} skipped`;
}
