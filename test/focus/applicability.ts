import { MODEL_DEFECTS } from "./modelDefects.js";
import type { ModelRule, RulesModel } from "./rulesModel.js";

/**
 * Why a rule is skipped before any data is read, in the validator's order of precedence: a Dynamic
 * rule (SkippedDynamicCheck), a MAY rule (SkippedOptionalCheck), then a rule not applicable to what
 * the provider declares (apply_result_overrides, phase 1); last, a rule no dataset can pass as the
 * model encodes it (MODEL_DEFECTS), where the validator reports a failure.
 */
export type StaticSkip = (rule: ModelRule) => string | undefined;

/** The validator's _check_rule_applicability: a rule with criteria applies when ANY of them is declared. */
function applies(rule: ModelRule, declared: ReadonlySet<string>): boolean {
  return rule.criteria.length === 0 || rule.criteria.some((criterion) => declared.has(criterion));
}

function notDeclared(rule: ModelRule): string {
  return `${rule.criteria.join(" or ")} not declared`;
}

/** A declared criterion the model does not define is a typo that would silently skip rules. */
function checkDeclared(model: RulesModel, declared: ReadonlySet<string>): void {
  const unknown = [...declared].filter((criterion) => !model.criteria.has(criterion));
  if (unknown.length > 0) throw new Error(`unknown ApplicabilityCriteria: ${unknown.join(", ")}`);
}

/**
 * The columns whose presence rule does not apply, each with that rule. As the validator does, every
 * rule whose id starts with such a column's name (`SkuId-C-005-C` for SkuId) is then not applicable
 * either: a column the provider need not have is not checked at all.
 */
function conditionalColumns(model: RulesModel, declared: ReadonlySet<string>): Map<string, ModelRule> {
  const columns = new Map<string, ModelRule>();
  for (const rule of model.rules.values()) {
    const presence = rule.function === "Presence" && rule.entityType === "Dataset";
    if (presence && rule.reference !== "CostAndUsage" && !applies(rule, declared)) {
      if (!columns.has(rule.reference)) columns.set(rule.reference, rule);
    }
  }
  return columns;
}

export function staticSkips(model: RulesModel, declared: ReadonlySet<string>): StaticSkip {
  checkDeclared(model, declared);
  const columns = conditionalColumns(model, declared);
  return (rule) => {
    if (rule.dynamic) return "dynamic rule: the model gives no check function";
    if (rule.keyword === "MAY") return "MAY: not enforced";
    if (!applies(rule, declared)) return `not applicable: ${notDeclared(rule)}`;
    const presence = columns.get(rule.id.split("-")[0] ?? "");
    if (presence !== undefined) {
      return `not applicable: column ${presence.reference} (${presence.id}): ${notDeclared(presence)}`;
    }
    return MODEL_DEFECTS.get(rule.id);
  };
}
