import type { Check } from "./modelSchema.js";
import type { RulesModel } from "./rulesModel.js";

/**
 * The Conditions that restrict the rows each rule checks: its own, and the Condition of every
 * Composite that depends on it. A Composite's Condition is how the model says "when PricingQuantity
 * is not null, PricingQuantity adheres to ..." (PricingQuantity-C-007-C); the validator applies it
 * to the rules the Composite depends on (__generate_duckdb_check__, "downstream composites"). It
 * does not reach further down: a Composite under that Composite passes on nothing.
 */
export function ruleConditions(model: RulesModel): ReadonlyMap<string, readonly Check[]> {
  const conditions = new Map<string, Check[]>();
  const add = (id: string, condition: Check | undefined) => {
    if (condition === undefined) return;
    const list = conditions.get(id) ?? [];
    if (!list.includes(condition)) list.push(condition);
    conditions.set(id, list);
  };
  for (const rule of model.rules.values()) add(rule.id, rule.condition);
  for (const rule of model.rules.values()) {
    if (rule.function !== "Composite") continue;
    for (const dependency of rule.dependencies) add(dependency, rule.condition);
  }
  return conditions;
}
