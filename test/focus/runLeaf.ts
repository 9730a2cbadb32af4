import type { DuckDBConnection } from "@duckdb/node-api";
import type { LeafQuery } from "./leafQuery.js";

/** What checking one rule found, before it is named with the rule's id and text. */
export interface Outcome {
  status: "pass" | "fail" | "skipped";
  reason?: string;
  violations?: number;
}

/**
 * The relation's column names, from DESCRIBE of a query over it: this works for a table, a view or
 * a table function such as read_parquet, where information_schema knows only the first two.
 */
export async function relationColumns(connection: DuckDBConnection, relation: string): Promise<Set<string>> {
  const reader = await connection.runAndReadAll(`DESCRIBE SELECT * FROM ${relation}`);
  return new Set(reader.getRowObjectsJS().map((row) => String(row.column_name)));
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

/**
 * Runs one rule's query. A rule about a column the relation lacks fails without a query, as the
 * validator's run_check turns DuckDB's binder error into a failure, whether the column is in the
 * requirement or only in a condition. A query DuckDB refuses at run time (a text column compared
 * with a number) fails the rule with DuckDB's message: the validator would stop there.
 */
export async function runLeaf(
  connection: DuckDBConnection,
  columns: ReadonlySet<string>,
  query: LeafQuery,
): Promise<Outcome> {
  if (query.kind === "presence") {
    return columns.has(query.column)
      ? { status: "pass" }
      : { status: "fail", reason: `column ${query.column} is absent` };
  }
  const missing = [...query.columns].filter((name) => !columns.has(name));
  if (missing.length > 0) return { status: "fail", reason: `missing column(s): ${missing.join(", ")}` };
  let violations: number;
  try {
    const reader = await connection.runAndReadAll(query.sql);
    violations = Number(reader.getRows()[0]?.[0]);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { status: "fail", reason: `query failed: ${message.split("\n")[0]}` };
  }
  if (violations === 0) return { status: "pass", violations };
  const what = query.kind === "rows" ? plural(violations, "row") : plural(violations, "group");
  return { status: "fail", violations, reason: `${what} ${violations === 1 ? "breaks" : "break"} it` };
}
