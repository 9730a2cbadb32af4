import type { DuckDBConnection } from "@duckdb/node-api";
import { hasViews } from "../load/presentViews.js";
import { sqlFile } from "../load/sqlFiles.js";
import { present } from "./readInvoiceFigures.js";
import { optionalText, queryRows, text } from "./rowValues.js";

/**
 * The API credits at the latest balance snapshot (`credits` in --json): what is left, how fast it
 * goes and when it runs out, as the credit_runway view defines them. Money is exact decimal text.
 */
export interface CreditFigures {
  /** When the latest snapshot was taken (the run's clock), ISO 8601 UTC. */
  taken_at: string;
  /** Monthly + stable credits' monetary value, USD. */
  remaining_usd: string;
  monthly_usd: string;
  stable_usd: string;
  /** The same credits as counts (the API's uint64, as decimal text): "the same value" in two units. */
  monthly_credits: string;
  stable_credits: string;
  /** When the monthly credits refresh; what is left of them then expires. */
  monthly_refresh_at: string | null;
  /** The plan's monthly allowance, USD; absent when the balance does not give it. */
  monthly_allowance_usd?: string;
  /** USD per day at the current rate; null when it is unknown (no burn and no priced calls). */
  burn_usd_per_day: string | null;
  /** "snapshots" (consecutive snapshots of the last 30 days) or "api_calls" (priced spend of the last 30 days). */
  burn_source: "snapshots" | "api_calls" | null;
  /**
   * Days until monthly and stable credits are both spent at that rate, by the ledger's rule (monthly
   * first, expiring at their refresh, the allowance back each month); 0 when nothing is left; null
   * when the burn is 0 or unknown, or the allowance keeps up with it.
   */
  runway_days: number | null;
  /** The UTC day the credits run out at that rate (the snapshot's day when nothing is left); null when the burn is 0 or unknown. */
  runs_out_on: string | null;
}

/**
 * The credits, or null when there is nothing to show: a database made before balance snapshots
 * (no credit_runway view; a report never changes the views, and opens read-only), or one whose
 * exports never stored a snapshot (the token could not see the balance).
 */
export async function readBalanceFigures(connection: DuckDBConnection): Promise<CreditFigures | null> {
  if (!(await hasViews(connection, ["credit_runway"]))) return null;
  const [row] = await queryRows(connection, sqlFile("report/balance.sql"), {});
  if (row === undefined) return null;
  const source = optionalText(row, "burn_source");
  const days = row.runway_days;
  return {
    taken_at: text(row, "taken_at"),
    remaining_usd: text(row, "remaining_usd"),
    monthly_usd: text(row, "monthly_usd"),
    stable_usd: text(row, "stable_usd"),
    monthly_credits: text(row, "monthly_credits"),
    stable_credits: text(row, "stable_credits"),
    monthly_refresh_at: optionalText(row, "monthly_refresh_at"),
    ...present("monthly_allowance_usd", optionalText(row, "monthly_allowance_usd")),
    burn_usd_per_day: optionalText(row, "burn_usd_per_day"),
    burn_source: source === "snapshots" || source === "api_calls" ? source : null,
    runway_days: typeof days === "number" ? days : null,
    runs_out_on: optionalText(row, "runs_out_on"),
  };
}
