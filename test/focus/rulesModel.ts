import { readFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { type Check, type Keyword, modelSchema, type ruleSchema } from "./modelSchema.js";

/** The vendored validator files (spec/focus/SOURCE says where they come from). */
const SPEC_FOCUS = path.resolve(import.meta.dirname, "../../spec/focus");

export interface ModelRule {
  id: string;
  function: z.infer<typeof ruleSchema>["Function"];
  reference: string;
  entityType: z.infer<typeof ruleSchema>["EntityType"];
  /** Type Dynamic: the model gives no check function, only the text. */
  dynamic: boolean;
  criteria: readonly string[];
  keyword: Keyword;
  mustSatisfy: string;
  requirement: Check | undefined;
  condition: Check | undefined;
  dependencies: readonly string[];
}

export interface RulesModel {
  /** In the model file's order. */
  rules: ReadonlyMap<string, ModelRule>;
  /** The ApplicabilityCriteria a provider can declare. */
  criteria: ReadonlySet<string>;
  /** The ISO 4217 codes CheckNationalCurrency accepts (the validator's currency_codes.csv). */
  currencyCodes: ReadonlySet<string>;
}

/** The codes of the validator's currency_codes.csv: a pandas index column, then `currency_codes`. */
export function parseCurrencyCodes(csv: string): Set<string> {
  const [header, ...lines] = csv.trim().split("\n");
  if (header !== ",currency_codes") throw new Error(`currency_codes.csv: unexpected header ${header}`);
  return new Set(lines.map((line) => line.split(",")[1]?.trim() ?? ""));
}

/** Every check of a tree, the tree itself first. */
export function checksOf(check: Check | undefined): Check[] {
  if (check === undefined) return [];
  if (check.CheckFunction === "AND" || check.CheckFunction === "OR") {
    return [check, ...check.Items.flatMap(checksOf)];
  }
  return [check];
}

/**
 * What the runner assumes of the model's structure, checked once so that a newer model breaking an
 * assumption fails to load instead of being evaluated wrongly.
 */
function assumptionBroken(rule: ModelRule, rules: ReadonlyMap<string, ModelRule>): string | undefined {
  const { requirement, condition } = rule;
  const inRequirement = checksOf(requirement);
  if (rule.dynamic !== (requirement === undefined)) return "is Dynamic exactly when it has no Requirement";
  const references = inRequirement.filter((check) => check.CheckFunction === "CheckModelRule");
  const composite =
    (requirement?.CheckFunction === "AND" || requirement?.CheckFunction === "OR") &&
    requirement.Items.every((item) => item.CheckFunction === "CheckModelRule");
  if ((rule.function === "Composite") !== composite) {
    return "is a Composite exactly when its Requirement is AND/OR of CheckModelRule items";
  }
  if (!composite && references.length > 0) return "uses CheckModelRule outside a Composite";
  // ruleConditions passes a Composite's Condition down its Dependencies, which must name its items.
  if (references.some((check) => !rule.dependencies.includes(check.ModelRuleId))) {
    return "references a rule it does not list in its Dependencies";
  }
  const wholeDataset = inRequirement.filter(
    (check) => check.CheckFunction === "ColumnPresent" || check.CheckFunction === "CheckDistinctCount",
  );
  if (wholeDataset.some((check) => check !== requirement)) {
    return "nests ColumnPresent or CheckDistinctCount, which are not row checks";
  }
  const conditionLeaves = checksOf(condition).map((check) => check.CheckFunction);
  if (
    conditionLeaves.some((name) => ["ColumnPresent", "CheckDistinctCount", "CheckModelRule"].includes(name))
  ) {
    return "has a Condition that is not a row check";
  }
  const named = [...rule.dependencies, ...references.map((check) => check.ModelRuleId)];
  const unknown = named.find((id) => !rules.has(id));
  return unknown === undefined ? undefined : `names ${unknown}, which is not in the model`;
}

/** The model from its parsed JSON and the currency codes, checked against the runner's assumptions. */
export function parseRulesModel(json: unknown, currencyCodes: ReadonlySet<string>): RulesModel {
  const parsed = modelSchema.safeParse(json);
  if (!parsed.success) throw new Error(`rules model: ${z.prettifyError(parsed.error)}`);
  const rules = new Map<string, ModelRule>();
  for (const [id, raw] of Object.entries(parsed.data.ModelRules)) {
    const criteria = raw.ValidationCriteria;
    rules.set(id, {
      id,
      function: raw.Function,
      reference: raw.Reference,
      entityType: raw.EntityType,
      dynamic: raw.Type === "Dynamic",
      criteria: raw.ApplicabilityCriteria,
      keyword: criteria.Keyword,
      mustSatisfy: criteria.MustSatisfy,
      requirement: criteria.Requirement,
      condition: criteria.Condition,
      dependencies: criteria.Dependencies,
    });
  }
  for (const rule of rules.values()) {
    const broken = assumptionBroken(rule, rules);
    if (broken !== undefined) throw new Error(`rules model: ${rule.id} ${broken}`);
  }
  return { rules, criteria: new Set(Object.keys(parsed.data.ApplicabilityCriteria)), currencyCodes };
}

/** The text of a file vendored in spec/focus. */
export function readSpecFocus(name: "model-1.2.json" | "currency_codes.csv"): string {
  return readFileSync(path.join(SPEC_FOCUS, name), "utf8");
}

/** The FOCUS 1.2 model and currency codes vendored in spec/focus. */
export function loadFocusModel(): RulesModel {
  const json: unknown = JSON.parse(readSpecFocus("model-1.2.json"));
  return parseRulesModel(json, parseCurrencyCodes(readSpecFocus("currency_codes.csv")));
}
