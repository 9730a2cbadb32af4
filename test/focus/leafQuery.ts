import type { Check, RowCheck } from "./modelSchema.js";
import { type RowPredicates, rowPredicates } from "./rowPredicates.js";
import type { ModelRule } from "./rulesModel.js";
import { column, numberLiteral } from "./sqlQuoting.js";

/**
 * The query that checks one rule that is not a Composite: a column's presence, a count of the rows
 * that break it, or a count of the groups that break a CheckDistinctCount. Every query reads the
 * relation once and returns one number, `violations`.
 */
export type LeafQuery =
  | { kind: "presence"; column: string }
  | { kind: "rows" | "groups"; columns: ReadonlySet<string>; sql: string };

interface Predicate {
  columns: readonly string[];
  sql: string;
}

function rowCheck(check: Check): RowCheck {
  const name = check.CheckFunction;
  if (["AND", "OR", "CheckModelRule", "ColumnPresent", "CheckDistinctCount"].includes(name)) {
    throw new Error(`${name} is not a row check`);
  }
  return check as RowCheck;
}

function combine(parts: readonly Predicate[], operator: "AND" | "OR"): Predicate {
  return {
    columns: parts.flatMap((part) => part.columns),
    sql: `(${parts.map((part) => `(${part.sql})`).join(` ${operator} `)})`,
  };
}

/**
 * The positive form of a Condition, as the validator compiles it: each leaf's `holds` (a NULL matches
 * no value condition), joined by the condition's AND and OR.
 */
function conditionHolds(check: Check, codes: ReadonlySet<string>): Predicate {
  if (check.CheckFunction === "AND" || check.CheckFunction === "OR") {
    return combine(
      check.Items.map((item) => conditionHolds(item, codes)),
      check.CheckFunction,
    );
  }
  const predicates: RowPredicates = rowPredicates(rowCheck(check), codes);
  return { columns: predicates.columns, sql: predicates.holds };
}

/**
 * Whether a row satisfies a requirement tree. A leaf is satisfied on a row where its violation is
 * not true, so a NULL it says nothing of satisfies it, as its own query would not count that row.
 * AND and OR combine inside the row: a row breaks "one of the allowed values" when it matches none.
 * (The validator passes an OR when each alternative holds on some row; the README says why not here.)
 */
function satisfied(check: Check, codes: ReadonlySet<string>): Predicate {
  if (check.CheckFunction === "AND" || check.CheckFunction === "OR") {
    return combine(
      check.Items.map((item) => satisfied(item, codes)),
      check.CheckFunction,
    );
  }
  const predicates = rowPredicates(rowCheck(check), codes);
  return { columns: predicates.columns, sql: `(${predicates.violation}) IS NOT TRUE` };
}

function requirementViolation(check: Check, codes: ReadonlySet<string>): Predicate {
  if (check.CheckFunction === "AND" || check.CheckFunction === "OR") {
    const tree = satisfied(check, codes);
    return { columns: tree.columns, sql: `NOT ${tree.sql}` };
  }
  const predicates = rowPredicates(rowCheck(check), codes);
  return { columns: predicates.columns, sql: predicates.violation };
}

/**
 * The query for `rule` over `relation`, restricted to the rows where every one of `conditions` (its
 * own and those it inherits) holds.
 */
export function leafQuery(
  rule: ModelRule,
  conditions: readonly Check[],
  relation: string,
  codes: ReadonlySet<string>,
): LeafQuery {
  const requirement = rule.requirement;
  if (requirement === undefined) throw new Error(`${rule.id} has no requirement`);
  if (requirement.CheckFunction === "ColumnPresent")
    return { kind: "presence", column: requirement.ColumnName };
  const filters = conditions.map((condition) => conditionHolds(condition, codes));
  const where = filters.length === 0 ? "TRUE" : filters.map((filter) => `(${filter.sql})`).join(" AND ");
  const filterColumns = filters.flatMap((filter) => filter.columns);
  if (requirement.CheckFunction === "CheckDistinctCount") {
    const [a, b] = [column(requirement.ColumnAName), column(requirement.ColumnBName)];
    const count = numberLiteral(requirement.ExpectedCount);
    return {
      kind: "groups",
      columns: new Set([requirement.ColumnAName, requirement.ColumnBName, ...filterColumns]),
      sql: `SELECT count(*) AS violations FROM (SELECT ${a} FROM ${relation} WHERE ${where} GROUP BY ${a} HAVING count(DISTINCT ${b}) <> ${count})`,
    };
  }
  const violation = requirementViolation(requirement, codes);
  return {
    kind: "rows",
    columns: new Set([...violation.columns, ...filterColumns]),
    sql: `SELECT count(*) AS violations FROM ${relation} WHERE (${where}) AND (${violation.sql})`,
  };
}
