import type { DuckDBConnection } from "./duckdb.js";
import { quotedString } from "./duckdb.js";
import { SCHEMA_FILES, schemaComments } from "./schemaFiles.js";

/**
 * Where each view's columns come from, nearest first: a view column that its file in sql/views/ does
 * not comment takes the comment of the column of the same name in the first of these that has one.
 * A `SELECT *` view (api_calls_enriched, operations_with_cost) would otherwise repeat every comment
 * of its table. Each view after its sources, so that what a source inherits is there before a view
 * inherits from it.
 */
export const VIEW_SOURCES: ReadonlyArray<readonly [view: string, sources: readonly string[]]> = [
  ["api_calls_enriched", ["api_calls"]],
  ["api_calls_excluding_own", ["api_calls_enriched"]],
  ["cost_per_day", ["api_calls_enriched"]],
  ["cost_per_month", ["cost_per_day", "api_calls_enriched"]],
  ["cost_per_day_excluding_own", ["cost_per_day"]],
  ["cost_per_month_excluding_own", ["cost_per_month"]],
  ["own_calls_per_month", ["api_calls_enriched"]],
  ["cost_per_endpoint", ["cost_per_day", "api_calls"]],
  ["cost_per_day_endpoint", ["cost_per_day", "api_calls_enriched"]],
  ["cost_per_method_status", ["cost_per_day", "api_calls"]],
  ["pending_billing", ["api_calls"]],
  ["operations_with_cost", ["async_operations"]],
  ["cost_per_operation_type", ["async_operations"]],
  ["billed_failed_operations", ["operations_with_cost"]],
  ["operation_timings", ["async_operations"]],
  ["conversion_pairs", ["async_operations"]],
  ["invoice_lines_without_calls", ["invoice_line_reconciliation"]],
  ["usage_charges", ["charges"]],
  ["invoice_charges", ["charges"]],
  ["call_token_match", ["api_calls"]],
  ["cost_per_token_label", ["cost_per_day", "call_token_match"]],
  ["cost_per_member", ["cost_per_day", "org_members", "api_calls"]],
  ["cost_per_service_account", ["cost_per_day", "service_accounts"]],
];

/** A table or view of main by its name, one of the internal schema as `internal.name`. */
const QUALIFIED_NAME = "CASE schema_name WHEN 'main' THEN '' ELSE schema_name || '.' END";

/** The comments the schema files set, by table or view, then column ("" for the table itself). */
function fileComments(): Map<string, Map<string, string>> {
  const comments = new Map<string, Map<string, string>>();
  for (const file of SCHEMA_FILES) {
    for (const { target, column, text } of schemaComments(file)) {
      const columns = comments.get(target) ?? new Map<string, string>();
      columns.set(column, text);
      comments.set(target, columns);
    }
  }
  return comments;
}

/**
 * Comments every table, view and column (the COMMENTs beside each CREATE in the schema files, then
 * the view columns that share their source's meaning), so BI tools and `duckdb_columns()` explain
 * each name. Runs on every open after the views are created (CREATE OR REPLACE VIEW drops a view's
 * comments), and sets only the comments
 * that differ from the stored ones: each COMMENT is a catalog change the open would commit, and on a
 * reopen the tables' comments are already there. All in one statement string: a round trip per
 * COMMENT would cost more than the comments.
 */
export async function commentWarehouse(connection: DuckDBConnection): Promise<void> {
  // The views' helper macros sit in main beside them, so BI tools list them too: commented alike.
  const reader = await connection.runAndReadAll(
    `SELECT ${QUALIFIED_NAME} || table_name, '' AS column_name, comment, 'TABLE' AS kind FROM duckdb_tables()
     WHERE database_name = current_database() AND schema_name IN ('main', 'internal') AND NOT temporary
     UNION ALL
     SELECT view_name, '', comment, 'VIEW' FROM duckdb_views()
     WHERE database_name = current_database() AND schema_name = 'main' AND NOT internal AND NOT temporary
     UNION ALL
     SELECT function_name, '', comment, CASE function_type WHEN 'macro' THEN 'MACRO' ELSE 'MACRO TABLE' END
     FROM duckdb_functions()
     WHERE database_name = current_database() AND schema_name = 'main' AND NOT internal
       AND function_type IN ('macro', 'table_macro')
     UNION ALL
     SELECT ${QUALIFIED_NAME} || table_name, column_name, comment, NULL FROM duckdb_columns()
     WHERE database_name = current_database() AND schema_name IN ('main', 'internal') AND NOT internal`,
  );
  const stored = new Map<string, Map<string, string>>();
  const kinds = new Map<string, string>();
  for (const [table, column, comment, kind] of reader.getRows()) {
    const columns = stored.get(String(table)) ?? new Map<string, string>();
    columns.set(String(column), comment === null ? "" : String(comment));
    stored.set(String(table), columns);
    if (kind !== null) kinds.set(String(table), String(kind));
  }
  const wanted = fileComments();
  for (const [view, sources] of VIEW_SOURCES) {
    const columns = wanted.get(view) ?? new Map<string, string>();
    for (const column of stored.get(view)?.keys() ?? []) {
      if (column === "" || columns.has(column)) continue;
      const inherited = sources.map((source) => wanted.get(source)?.get(column)).find((text) => !!text);
      if (inherited !== undefined) columns.set(column, inherited);
    }
    wanted.set(view, columns);
  }
  const statements: string[] = [];
  for (const [table, columns] of wanted) {
    for (const [column, comment] of columns) {
      // A column the file comments but this database lacks is left to the code that needs it:
      // comments never stop an open.
      const current = stored.get(table)?.get(column);
      if (current === undefined || current === comment) continue;
      const name = table
        .split(".")
        .map((part) => `"${part}"`)
        .join(".");
      const target = column === "" ? `${kinds.get(table) ?? "TABLE"} ${name}` : `COLUMN ${name}."${column}"`;
      statements.push(`COMMENT ON ${target} IS ${quotedString(comment)}`);
    }
  }
  if (statements.length > 0) await connection.run(statements.join(";\n"));
}
