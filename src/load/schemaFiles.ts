import { sqlFile } from "./sqlFiles.js";

/**
 * The step of the schema that moves an older database's bookkeeping out of main
 * (internalSchema.ts): after the internal tables exist, before the warehouse id is made (so that a
 * moved id is kept) and before the views read them.
 */
export const MOVE_INTERNAL_STATE = "move the bookkeeping of an older database into internal";

/**
 * How the warehouse is made, in the order it is applied on every open: the sql/ files (each a
 * table, or the views of one concept, with their COMMENTs) and the move. First the macros the
 * tables use (sql/functions/utc.sql: the loader and the back-fill cut days with them), then the
 * tables, then the internal schema, then the views, each after the views it reads: calls.sql before
 * all others (api_calls_enriched, is_own_call), cost.sql before spenders.sql (cost_per_day), the
 * invoices' files before reconciliation.sql (call_billing_class), spenders.sql (call_token_match)
 * before ledger.sql (charges), credits.sql and ledger.sql before books.sql
 * (monthly_reconciliation).
 */
export const SCHEMA_STEPS = [
  "functions/utc.sql",
  "tables/api_calls.sql",
  "tables/rejects.sql",
  "tables/runs.sql",
  "tables/async_operations.sql",
  "tables/balance_snapshots.sql",
  "tables/invoices.sql",
  "tables/invoice_lines.sql",
  "tables/api_tokens.sql",
  "tables/service_accounts.sql",
  "tables/org_members.sql",
  "tables/usage_grains.sql",
  "tables/call_grains.sql",
  "internal/schema.sql",
  "internal/export_state.sql",
  "internal/page_ladder.sql",
  "internal/parquet_dirty.sql",
  "internal/stale_class_days.sql",
  "internal/focus_partitions.sql",
  "internal/own_calls.sql",
  "internal/pending_rereads.sql",
  "internal/warehouse_identity.sql",
  "internal/alert_state.sql",
  "internal/schema_state.sql",
  MOVE_INTERNAL_STATE,
  "internal/warehouse_id.sql",
  "views/calls.sql",
  "views/cost.sql",
  "views/duration.sql",
  "views/operations.sql",
  "views/credits.sql",
  "views/invoices.sql",
  "views/invoice_lines.sql",
  "views/reconciliation.sql",
  "views/spenders.sql",
  "views/ledger_calls.sql",
  "views/ledger_invoices.sql",
  "views/ledger.sql",
  "views/books.sql",
  "views/focus.sql",
  "views/forecast.sql",
] as const;

/** The sql/ files of the schema, in the order they are applied. */
export const SCHEMA_FILES: readonly string[] = SCHEMA_STEPS.filter((step) => step !== MOVE_INTERNAL_STATE);

/**
 * One COMMENT statement of a schema file, on one line: `COMMENT ON COLUMN table.column IS '...';`,
 * a table of the internal schema written `internal.table`.
 */
const COMMENT_STATEMENT =
  /^COMMENT ON (TABLE|VIEW|COLUMN|MACRO TABLE|MACRO) ((?:internal\.)?\w+)(?:\.(\w+))? IS '((?:[^']|'')*)';$/gm;

/** A schema file's CREATE and ALTER statements, without its COMMENTs (set apart, see below). */
export function schemaStatements(file: string): string {
  return sqlFile(file).replace(COMMENT_STATEMENT, "");
}

/** One comment a schema file sets: on a table, view or macro (column "") or on one column. */
export interface SchemaComment {
  target: string;
  column: string;
  text: string;
}

/**
 * The COMMENTs of a schema file, apart from its statements: the open sets only those that differ
 * from the stored ones (warehouseComments.ts). A COMMENT not of the one-line form fails loudly
 * rather than run with the statements.
 */
export function schemaComments(file: string): SchemaComment[] {
  return commentsOf(sqlFile(file), file);
}

/** The COMMENTs of the text of the schema file `file` (see schemaComments). */
export function commentsOf(text: string, file: string): SchemaComment[] {
  const comments = [...text.matchAll(COMMENT_STATEMENT)].map(
    ([, kind, target = "", column = "", quoted = ""]) => ({
      target,
      column: kind === "COLUMN" ? column : "",
      text: quoted.replaceAll("''", "'"),
    }),
  );
  const written = text.match(/^COMMENT ON/gm)?.length ?? 0;
  if (comments.length !== written) {
    throw new Error(
      `sql/${file}: ${written - comments.length} COMMENT statements not on one line of the expected form`,
    );
  }
  return comments;
}
