import { isoTimeSql } from "../log/isoTime.js";
import { counted } from "../log/plural.js";
import { printable } from "../log/printable.js";
import {
  ellipsis,
  padEndTo,
  padStartTo,
  TERMINAL_COLUMNS,
  textWidth,
  wrapLine,
} from "../log/terminalText.js";
import { groupDigits, usdText } from "../log/usdText.js";
import type { Warehouse } from "./database.js";

export interface CostSummary {
  calls: number;
  costUsd: string;
  firstCall: string | null;
  lastCall: string | null;
  pendingCalls: number;
  topEndpoints: { template: string; calls: number; costUsd: string }[];
}

/** The short spend summary shown after a run, read from the views (exact DECIMAL sums as text). */
export async function readCostSummary(warehouse: Warehouse, top = 5): Promise<CostSummary> {
  const { connection } = warehouse;
  const totals = await connection.runAndReadAll(
    `SELECT count(*)::INTEGER, coalesce(sum(price_usd), 0)::DECIMAL(38,6)::VARCHAR, ${isoTimeSql("min(created_at)")}, ${isoTimeSql("max(created_at)")}, count(*) FILTER (WHERE completed_at IS NULL)::INTEGER FROM api_calls`,
  );
  const [calls, costUsd, firstCall, lastCall, pendingCalls] = (totals.getRows()[0] ?? []) as [
    number,
    string,
    string | null,
    string | null,
    number,
  ];
  const endpoints = await connection.runAndReadAll(
    "SELECT coalesce(endpoint_template, '(none)'), calls::INTEGER, cost_usd::VARCHAR FROM cost_per_endpoint LIMIT $top",
    { top },
  );
  return {
    calls,
    costUsd,
    firstCall,
    lastCall,
    pendingCalls,
    topEndpoints: endpoints.getRows().map(([template, count, cost]) => ({
      template: String(template),
      calls: Number(count),
      costUsd: String(cost),
    })),
  };
}

/**
 * The spend lines after a run: amounts as `report` prints them (usdText), counts grouped alike. They
 * fit an 80-column terminal: the amounts and counts are whole, a long endpoint template is cut.
 */
export function describeCostSummary(summary: CostSummary): string {
  const count = (value: number) => groupDigits(String(value));
  const usdWidth = Math.max(0, ...summary.topEndpoints.map((row) => textWidth(usdText(row.costUsd))));
  const callsWidth = Math.max(5, ...summary.topEndpoints.map((row) => textWidth(count(row.calls))));
  const lines = [
    `spend: ${usdText(summary.costUsd)} over ${counted(count(summary.calls), "call")}, ${count(summary.pendingCalls)} with billing pending`,
    `  from ${summary.firstCall ?? "-"} .. ${summary.lastCall ?? "-"}`,
    "  top endpoints by cost:",
    ...summary.topEndpoints.map((row) => {
      const calls = padEndTo(counted(padStartTo(count(row.calls), callsWidth), "call"), callsWidth + 6);
      const figures = `    ${padStartTo(usdText(row.costUsd), usdWidth)}  ${calls}  `;
      return figures + ellipsis(printable(row.template), TERMINAL_COLUMNS - textWidth(figures));
    }),
  ];
  return lines.flatMap((line) => wrapLine(line, "    ")).join("\n");
}
