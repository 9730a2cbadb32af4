import { describe, expect, test } from "vitest";
import { type FocusRuleResult, failingRules, formatRuleResult, summaryLine } from "./conformance.js";

/** The helpers a conformance test prints its findings with. */

const result = (
  id: string,
  keyword: string,
  status: FocusRuleResult["status"],
  reason?: string,
): FocusRuleResult => ({
  id,
  reference: id.split("-")[0] ?? id,
  keyword,
  status,
  ...(reason === undefined ? {} : { reason }),
  mustSatisfy: `${id.split("-")[0]} says so.`,
});

const RESULTS = [
  result("BilledCost-C-003-M", "MUST NOT", "pass"),
  result("PricingUnit-C-003-O", "SHOULD", "fail", "2 rows break it"),
  result("ChargeDescription-C-003-O", "SHOULD NOT", "fail", "1 row breaks it"),
  result("BilledCost-C-001-M", "MUST", "fail", "missing column(s): BilledCost"),
  result("Tags-C-001-M", "MUST", "skipped", "not applicable: TAGGING_SUPPORTED not declared"),
];

describe("reporting", () => {
  test("failingRules keeps the failed rules of the keywords asked for", () => {
    expect(failingRules(RESULTS, ["SHOULD", "SHOULD NOT"]).map((r) => r.id)).toEqual([
      "PricingUnit-C-003-O",
      "ChargeDescription-C-003-O",
    ]);
    expect(failingRules(RESULTS, ["MUST", "MUST NOT"]).map((r) => r.id)).toEqual(["BilledCost-C-001-M"]);
  });

  test("formatRuleResult says keyword, id, status, why and the rule's text on one line", () => {
    expect(formatRuleResult(RESULTS[1] as FocusRuleResult)).toBe(
      "SHOULD PricingUnit-C-003-O fail (2 rows break it): PricingUnit says so.",
    );
    expect(formatRuleResult(RESULTS[0] as FocusRuleResult)).toBe(
      "MUST NOT BilledCost-C-003-M pass: BilledCost says so.",
    );
  });

  test("summaryLine counts statuses and the failures by keyword", () => {
    expect(summaryLine(RESULTS)).toBe(
      "5 FOCUS rules: 1 pass, 3 fail (SHOULD 1, SHOULD NOT 1, MUST 1), 1 skipped",
    );
  });
});
