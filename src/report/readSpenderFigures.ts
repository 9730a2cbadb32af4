import type { DuckDBConnection } from "@duckdb/node-api";
import { hasViews } from "../load/presentViews.js";
import { sqlFile } from "../load/sqlFiles.js";
import { count, optionalText, queryRows, text } from "./rowValues.js";

/** The period's spend per person (org_members names them in org scope). */
export interface MemberSpendFigure {
  user_id: string;
  name: string | null;
  /**
   * As stored (kept, hashed or null per --email-column); present only with `report --show-email`,
   * as in the list of the most expensive calls: the report is meant to be passed around.
   */
  email?: string | null;
  role: string | null;
  calls: number;
  cost_usd: string;
}

/** The period's spend per token label, as call_token_match groups the calls. */
export interface TokenLabelSpendFigure {
  match_status: "matched" | "ambiguous" | "unmatched";
  token_kind: "api_token" | "service_account" | null;
  token_label: string | null;
  calls: number;
  cost_usd: string;
}

/**
 * Who spent it: every call of the period in one group per person and one per token label (ambiguous
 * and unmatched calls are groups of their own), so each list sums to the period's total.
 */
export interface SpenderFigures {
  per_member: MemberSpendFigure[];
  per_token_label: TokenLabelSpendFigure[];
  /**
   * How far the token attribution reaches: a call is matched to a token by the token's last 4
   * characters, all the API shows of one; the shares of the period's calls matched to one token,
   * to several (ambiguous) and to none.
   */
  token_match: { calls: number; matched_calls: number; ambiguous_calls: number; unmatched_calls: number };
}

/**
 * The period's spend per person and per token label, or null when the database predates the
 * call_token_match view (a report opens the database read-only and never adds views).
 */
export async function readSpenderFigures(
  connection: DuckDBConnection,
  period: { from: string | null; to: string | null },
  showEmail = false,
): Promise<SpenderFigures | null> {
  if (!(await hasViews(connection, ["call_token_match"]))) return null;
  const rows = await queryRows(connection, sqlFile("report/spenders.sql"), period);
  const labels = rows.filter((row) => row.grouping === "token_label");
  const callsWith = (status: string) =>
    labels.filter((row) => row.match_status === status).reduce((n, row) => n + count(row, "calls"), 0);
  return {
    per_member: rows
      .filter((row) => row.grouping === "member")
      .map((row) => ({
        user_id: text(row, "user_id"),
        name: optionalText(row, "name"),
        ...(showEmail ? { email: optionalText(row, "email") } : {}),
        role: optionalText(row, "role"),
        calls: count(row, "calls"),
        cost_usd: text(row, "cost_usd"),
      })),
    per_token_label: rows
      .filter((row) => row.grouping === "token_label")
      .map((row) => ({
        match_status: text(row, "match_status") as TokenLabelSpendFigure["match_status"],
        token_kind: optionalText(row, "token_kind") as TokenLabelSpendFigure["token_kind"],
        token_label: optionalText(row, "token_label"),
        calls: count(row, "calls"),
        cost_usd: text(row, "cost_usd"),
      })),
    token_match: {
      calls: labels.reduce((n, row) => n + count(row, "calls"), 0),
      matched_calls: callsWith("matched"),
      ambiguous_calls: callsWith("ambiguous"),
      unmatched_calls: callsWith("unmatched"),
    },
  };
}

/** The token attribution's reach in words: "matched on the token's last 4 characters: 93.2% of calls". */
export function tokenMatchText(match: SpenderFigures["token_match"]): string {
  const share = (part: number) => (match.calls === 0 ? "-" : `${((100 * part) / match.calls).toFixed(1)}%`);
  return `matched on the token's last 4 characters: ${share(match.matched_calls)} of calls`;
}

/** How a token-label group reads in the terminal and the page. */
export function tokenLabelName(row: TokenLabelSpendFigure): string {
  if (row.match_status === "ambiguous") return "(ambiguous: several tokens end alike)";
  if (row.match_status === "unmatched") return "(unmatched: token not listed)";
  const kind = row.token_kind === "service_account" ? "service account" : "token";
  return row.token_label === null ? `(unlabelled ${kind})` : `${row.token_label} (${kind})`;
}

/** How a person reads: the member's name, else the user id. */
export function memberName(row: MemberSpendFigure): string {
  return row.name ?? row.user_id;
}
