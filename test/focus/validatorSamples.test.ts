import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { FocusRuleResult } from "./conformance.js";
import { evaluateRules } from "./evaluateRules.js";
import { loadValidatorCsv } from "./fixtures/validatorCsv.js";
import { loadFocusModel, type RulesModel } from "./rulesModel.js";
import { openTestDatabase, type TestDatabase } from "./testDatabase.js";

/**
 * The full 1.2 model over the validator's own sample CSVs (tests/samples, copied to fixtures/), with
 * the outcomes its tests assert for the same rules and data shapes. Two of the three samples are
 * older than FOCUS 1.0 (ChargeType, not ChargeCategory): the 1.2 model sees a missing column there,
 * and the bad values are checked again under the 1.2 name.
 */

let database: TestDatabase;
let model: RulesModel;
beforeAll(async () => {
  database = await openTestDatabase();
  model = loadFocusModel();
});
afterAll(() => database?.close());

async function check(file: string, criteria: readonly string[] = []): Promise<Map<string, FocusRuleResult>> {
  await loadValidatorCsv(database.connection, "sample", file, model);
  const results = await evaluateRules(database.connection, '"sample"', model, new Set(criteria));
  return new Map(results.map((result) => [result.id, result]));
}

/** The presence rules that apply without any criterion, for the columns a sample lacks. */
function absentColumnRules(present: readonly string[]): string[] {
  return [...model.rules.values()]
    .filter((rule) => rule.function === "Presence" && rule.criteria.length === 0 && rule.keyword !== "MAY")
    .filter((rule) => !present.includes(rule.reference))
    .map((rule) => rule.id);
}

/** The presence rules that failed. */
const failingPresence = (results: Map<string, FocusRuleResult>) =>
  [...results.values()]
    .filter((r) => r.status === "fail" && model.rules.get(r.id)?.function === "Presence")
    .map((r) => r.id);

describe("fail_invoice_issuer.csv: InvoiceIssuerName, ResourceID, ProviderName, BilledCost, AvailabilityZone", () => {
  test("BilledCost-C-005-C fails on the one row billed by someone else for a non-zero cost", async () => {
    // test_conditional_rules.py: the rule fails when ProviderName differs from InvoiceIssuerName
    // and BilledCost is not 0, one violation per such row; equal names are out of its condition.
    const results = await check("fail_invoice_issuer.csv");
    expect(results.get("BilledCost-C-005-C")).toMatchObject({ status: "fail", violations: 1 });
    expect(results.get("BilledCost-C-000-M")).toMatchObject({
      status: "fail",
      reason: "failed: BilledCost-C-005-C",
    });
    for (const id of [
      "BilledCost-C-001-M",
      "BilledCost-C-002-M",
      "BilledCost-C-003-M",
      "BilledCost-C-004-M",
    ]) {
      expect(results.get(id)?.status, id).toBe("pass");
    }
    for (const column of ["ProviderName", "InvoiceIssuerName"]) {
      expect(results.get(`${column}-C-000-M`)?.status, column).toBe("pass");
    }
  });

  test("the mandatory columns it lacks fail their presence rules; the ones it has pass", async () => {
    // test_column_presence.py: CostAndUsage-D-005-M fails on a dataset without BillingAccountName.
    const results = await check("fail_invoice_issuer.csv");
    const present = ["InvoiceIssuerName", "ProviderName", "BilledCost"];
    expect(failingPresence(results).sort()).toEqual(absentColumnRules(present).sort());
    expect(results.get("CostAndUsage-D-006-M")?.status).toBe("pass");
  });

  test("AvailabilityZone is checked only when the provider declares it", async () => {
    // test_column_presence_with_applicability.py: skipped as not applicable without the criterion.
    const without = await check("fail_invoice_issuer.csv");
    expect(without.get("CostAndUsage-D-003-C")).toMatchObject({
      status: "skipped",
      reason: "not applicable: AVAILABILITY_ZONE_SUPPORTED not declared",
    });
    expect(without.get("AvailabilityZone-C-001-M")?.status).toBe("skipped");
    const declared = await check("fail_invoice_issuer.csv", ["AVAILABILITY_ZONE_SUPPORTED"]);
    expect(declared.get("CostAndUsage-D-003-C")?.status).toBe("pass");
    // The loader reads "1.2" as text, as the model types AvailabilityZone.
    expect(declared.get("AvailabilityZone-C-001-M")).toMatchObject({ status: "pass", violations: 0 });
  });
});

describe("all_fail.csv: one custom column, x_foo", () => {
  test("every presence rule that applies fails, and no rule passes", async () => {
    const results = await check("all_fail.csv");
    expect(failingPresence(results).sort()).toEqual(absentColumnRules([]).sort());
    expect([...results.values()].filter((r) => r.status === "pass")).toEqual([]);
    expect(results.get("BilledCost-C-003-M")).toMatchObject({
      status: "fail",
      reason: "missing column(s): BilledCost",
    });
  });

  test("declaring every criterion makes the conditional presence rules fail too", async () => {
    const results = await check("all_fail.csv", [...model.criteria]);
    expect(results.get("CostAndUsage-D-011-C")).toMatchObject({
      status: "fail",
      reason: "column ConsumedQuantity is absent",
    });
    expect(results.get("CostAndUsage-D-064-C")).toMatchObject({
      status: "fail",
      reason: "column Tags is absent",
    });
  });
});

describe("fail_charge_type_bad_value.csv: ChargeType a, b, c (FOCUS 0.5)", () => {
  test("under 1.2 the dataset has no ChargeCategory", async () => {
    const results = await check("fail_charge_type_bad_value.csv");
    expect(results.get("CostAndUsage-D-008-M")).toMatchObject({
      status: "fail",
      reason: "column ChargeCategory is absent",
    });
    expect(results.get("ChargeCategory-C-003-M")).toMatchObject({
      status: "fail",
      reason: "missing column(s): ChargeCategory",
    });
  });

  test("its values under the 1.2 name are three rows outside the allowed values", async () => {
    // test_allowed_values_casing.py: each row outside Usage, Purchase, Tax, Credit, Adjustment
    // is one violation of ChargeCategory-C-003-M.
    await loadValidatorCsv(database.connection, "sample", "fail_charge_type_bad_value.csv", model);
    await database.connection.run(
      'CREATE OR REPLACE VIEW renamed AS SELECT "ChargeType" AS "ChargeCategory" FROM sample',
    );
    const results = await evaluateRules(database.connection, "renamed", model, new Set());
    const byId = new Map(results.map((result) => [result.id, result]));
    expect(byId.get("ChargeCategory-C-003-M")).toMatchObject({ status: "fail", violations: 3 });
    expect(byId.get("ChargeCategory-C-001-M")).toMatchObject({ status: "pass", violations: 0 });
    expect(byId.get("ChargeCategory-C-002-M")).toMatchObject({ status: "pass", violations: 0 });
  });
});
