import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { staticSkips } from "./applicability.js";
import { handMadeModel } from "./fixtures/handMadeModel.js";
import { loadFocusModel, parseCurrencyCodes } from "./rulesModel.js";

/** The vendored model: what it holds, that it is the file SOURCE names, and how strictly it is read. */

const SPEC_FOCUS = path.resolve(import.meta.dirname, "../../spec/focus");

describe("the vendored FOCUS 1.2 model", () => {
  const model = loadFocusModel();
  const rules = [...model.rules.values()];
  const count = (keep: (rule: (typeof rules)[number]) => boolean) => rules.filter(keep).length;

  test("holds 621 rules, 201 of them Dynamic, 143 Composites, over 18 criteria", () => {
    expect(rules.length).toBe(621);
    expect(count((rule) => rule.dynamic)).toBe(201);
    expect(count((rule) => rule.function === "Composite")).toBe(143);
    expect(count((rule) => rule.function === "Presence")).toBe(63);
    expect(count((rule) => rule.criteria.length > 0)).toBe(96);
    expect(model.criteria.size).toBe(18);
    expect(model.currencyCodes.size).toBe(180);
    expect(model.currencyCodes.has("USD")).toBe(true);
  });

  test.each([
    ["no criterion", [], { dynamic: 201, MAY: 9, "not applicable": 247, "model defect": 2 }],
    [
      "USAGE_MEASUREMENT_SUPPORTED",
      ["USAGE_MEASUREMENT_SUPPORTED"],
      { dynamic: 201, MAY: 9, "not applicable": 231, "model defect": 2 },
    ],
    ["every criterion", [...model.criteria], { dynamic: 201, MAY: 9, "model defect": 2 }],
  ])("skips before reading data, declaring %s", (_, criteria, expected) => {
    const skip = staticSkips(model, new Set(criteria));
    const reasons: Record<string, number> = {};
    for (const rule of rules) {
      const reason = skip(rule)
        ?.split(":")[0]
        ?.replace(/ rule$/, "");
      if (reason !== undefined) reasons[reason] = (reasons[reason] ?? 0) + 1;
    }
    expect(reasons).toEqual(expected);
  });

  test("is byte for byte the files spec/focus/SOURCE names, by their SHA-256", () => {
    const source = readFileSync(path.join(SPEC_FOCUS, "SOURCE"), "utf8");
    for (const file of ["model-1.2.json", "currency_codes.csv", "LICENSE"]) {
      const digest = createHash("sha256")
        .update(readFileSync(path.join(SPEC_FOCUS, file)))
        .digest("hex");
      expect(source, file).toContain(`${digest}  ${file}`);
    }
  });

  test("reads the four misshapen Conditions as they are meant", () => {
    expect(model.rules.get("ResourceType-C-005-C")?.condition).toEqual({
      CheckFunction: "CheckNotValue",
      ColumnName: "ResourceId",
      Value: null,
    });
    expect(model.rules.get("CapacityReservationStatus-C-003-C")?.condition).toEqual({
      CheckFunction: "AND",
      Items: [{ CheckFunction: "CheckValue", ColumnName: "CapacityReservationId", Value: null }],
    });
    expect(model.rules.get("CapacityReservationStatus-C-004-C")?.condition).toMatchObject({
      CheckFunction: "AND",
      Items: [{ ColumnName: "CapacityReservationId" }, { ColumnName: "ChargeCategory" }],
    });
  });
});

describe("reading a model", () => {
  test("refuses a check function it does not know, naming the rule", () => {
    expect(() =>
      handMadeModel({ "X-C-001-M": { requirement: { CheckFunction: "CheckRegex", ColumnName: "X" } } }),
    ).toThrow(/X-C-001-M/);
  });

  test("refuses a rule that names a rule the model lacks", () => {
    expect(() =>
      handMadeModel({
        "X-C-001-M": {
          requirement: { CheckFunction: "TypeString", ColumnName: "X" },
          dependencies: ["Y-C-001-M"],
        },
      }),
    ).toThrow("X-C-001-M names Y-C-001-M, which is not in the model");
  });

  test("refuses CheckModelRule outside a Composite", () => {
    const reference = { CheckFunction: "CheckModelRule", ModelRuleId: "Y-C-001-M" };
    expect(() =>
      handMadeModel({
        "X-C-001-M": {
          requirement: {
            CheckFunction: "AND",
            Items: [reference, { CheckFunction: "TypeString", ColumnName: "X" }],
          },
        },
        "Y-C-001-M": { requirement: { CheckFunction: "TypeString", ColumnName: "Y" } },
      }),
    ).toThrow("uses CheckModelRule outside a Composite");
  });

  test("reads the currency codes file's one column", () => {
    expect([...parseCurrencyCodes(",currency_codes\n0,SEK\n1,USD\n")]).toEqual(["SEK", "USD"]);
    expect(() => parseCurrencyCodes("code\nUSD\n")).toThrow("unexpected header");
  });
});
