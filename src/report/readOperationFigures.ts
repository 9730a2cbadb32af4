import type { DuckDBConnection } from "@duckdb/node-api";
import { hasViews } from "../load/presentViews.js";
import { sqlFile } from "../load/sqlFiles.js";
import type { OperationFigures } from "./figures.js";
import { count, optionalText, queryRows, text } from "./rowValues.js";

/** The views the operation sections read; another part of zoo-usage creates them. */
export const OPERATION_VIEWS = ["cost_per_operation_type", "billed_failed_operations"] as const;

/**
 * The operation figures, or null when the database predates the operation views (both must
 * exist: a report never creates views, and opens the database read-only anyway).
 */
export async function readOperationFigures(
  connection: DuckDBConnection,
  options: { from: string | null; to: string | null; top: number },
): Promise<OperationFigures | null> {
  if (!(await hasViews(connection, OPERATION_VIEWS))) return null;

  const types = await queryRows(connection, sqlFile("report/operation_types.sql"), {});
  // The view sums operations_with_cost; a database whose cost_per_operation_type stands alone
  // has no dates to show.
  const [window] = (await hasViews(connection, ["operations_with_cost"]))
    ? await queryRows(connection, sqlFile("report/operation_window.sql"), {})
    : [];
  const failed = await queryRows(connection, sqlFile("report/billed_failed.sql"), options);
  const totals = failed[0] ?? {};
  return {
    by_type_and_status: {
      scope: "stored_operations",
      first_day: window === undefined ? null : optionalText(window, "first_day"),
      last_day: window === undefined ? null : optionalText(window, "last_day"),
      rows: types.map((row) => ({
        operation_type: optionalText(row, "operation_type"),
        status: optionalText(row, "status"),
        operations: count(row, "operations"),
        cost_usd: text(row, "cost_usd"),
      })),
    },
    billed_failed: {
      operations: count(totals, "operations"),
      cost_usd: text(totals, "cost_usd"),
      most_expensive: failed
        .filter((row) => row.id !== null)
        .map((row) => ({
          id: text(row, "id"),
          operation_type: optionalText(row, "operation_type"),
          error: optionalText(row, "error"),
          price_usd: text(row, "price_usd"),
          created_at: optionalText(row, "created_at"),
        })),
    },
  };
}
