import type { DuckDBConnection } from "@duckdb/node-api";
import { staticSkips } from "./applicability.js";
import type { FocusRuleResult } from "./conformance.js";
import { leafQuery } from "./leafQuery.js";
import { ruleConditions } from "./ruleConditions.js";
import type { ModelRule, RulesModel } from "./rulesModel.js";
import { type Outcome, relationColumns, runLeaf } from "./runLeaf.js";

/**
 * A Composite's outcome from its items' outcomes, as the validator's composite aggregation
 * (apply_result_overrides, phase 3): skipped items do not count, AND needs every counted item to
 * pass, OR one, and a Composite whose items are all skipped is skipped.
 *
 * The validator also marks every rule that depends on a not-applicable rule as not applicable
 * (phase 1, _collect_all_descendants), which skips whole Composites such as EffectiveCost-C-000-M
 * and CostAndUsage-D-000-M when one item needs an undeclared criterion. Here such a Composite counts
 * its applicable items instead, so the dataset's top rules still say whether the rest conforms.
 */
function combine(rule: ModelRule, items: readonly FocusRuleResult[]): Outcome {
  const counted = items.filter((item) => item.status !== "skipped");
  if (counted.length === 0) return { status: "skipped", reason: "all items skipped" };
  const failed = counted.filter((item) => item.status === "fail").map((item) => item.id);
  if (rule.requirement?.CheckFunction === "OR") {
    return failed.length < counted.length
      ? { status: "pass" }
      : { status: "fail", reason: `none passes: ${failed.join(", ")}` };
  }
  return failed.length === 0
    ? { status: "pass" }
    : { status: "fail", reason: `failed: ${failed.join(", ")}` };
}

function referencedRules(rule: ModelRule): string[] {
  const requirement = rule.requirement;
  if (requirement?.CheckFunction !== "AND" && requirement?.CheckFunction !== "OR") return [];
  return requirement.Items.flatMap((item) =>
    item.CheckFunction === "CheckModelRule" ? [item.ModelRuleId] : [],
  );
}

/**
 * Every rule of `model` over `relation`, each evaluated once however many Composites and
 * Dependencies name it. A rule that is not a Composite is skipped when a rule it depends on is
 * skipped (the validator's phase 2); a failed dependency does not stop it.
 */
export async function evaluateRules(
  connection: DuckDBConnection,
  relation: string,
  model: RulesModel,
  declared: ReadonlySet<string>,
): Promise<FocusRuleResult[]> {
  const skip = staticSkips(model, declared);
  const conditions = ruleConditions(model);
  const columns = await relationColumns(connection, relation);
  const results = new Map<string, FocusRuleResult>();
  const inProgress = new Set<string>();

  const decide = async (rule: ModelRule): Promise<Outcome> => {
    const reason = skip(rule);
    if (reason !== undefined) return { status: "skipped", reason };
    if (rule.function === "Composite") {
      const items: FocusRuleResult[] = [];
      for (const id of referencedRules(rule)) items.push(await evaluate(id));
      return combine(rule, items);
    }
    const skipped: string[] = [];
    for (const id of rule.dependencies) {
      if ((await evaluate(id)).status === "skipped") skipped.push(id);
    }
    if (skipped.length > 0) return { status: "skipped", reason: `dependency skipped: ${skipped.join(", ")}` };
    const query = leafQuery(rule, conditions.get(rule.id) ?? [], relation, model.currencyCodes);
    return runLeaf(connection, columns, query);
  };

  const evaluate = async (id: string): Promise<FocusRuleResult> => {
    const known = results.get(id);
    if (known !== undefined) return known;
    const rule = model.rules.get(id);
    if (rule === undefined) throw new Error(`rules model: no rule ${id}`);
    if (inProgress.has(id)) throw new Error(`rules model: ${id} depends on itself`);
    inProgress.add(id);
    const outcome = await decide(rule);
    inProgress.delete(id);
    const result: FocusRuleResult = {
      id,
      reference: rule.reference,
      keyword: rule.keyword,
      mustSatisfy: rule.mustSatisfy,
      ...outcome,
    };
    results.set(id, result);
    return result;
  };

  const ordered: FocusRuleResult[] = [];
  for (const id of model.rules.keys()) ordered.push(await evaluate(id));
  return ordered;
}
