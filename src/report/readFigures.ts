import type { DuckDBConnection } from "@duckdb/node-api";
import type { Warehouse } from "../load/database.js";
import { sqlFile } from "../load/sqlFiles.js";
import { isoTime } from "../log/isoTime.js";
import { daySpan, trailingWindow } from "./calendar.js";
import type { ReportFigures } from "./figures.js";
import { readBalanceFigures } from "./readBalanceFigures.js";
import { readForecastFigures } from "./readForecastFigures.js";
import { readInvoiceFigures } from "./readInvoiceFigures.js";
import { readOperationFigures } from "./readOperationFigures.js";
import { readOwnCallFigures } from "./readOwnCallFigures.js";
import { readSpenderFigures } from "./readSpenderFigures.js";
import { count, optionalInteger, optionalText, queryRows, text } from "./rowValues.js";

/** A period of at most this many days is drawn whole in the terminal (two months fit 80 columns). */
export const SPARKLINE_MAX_DAYS = 62;
/** Days drawn of a longer period: its last ones, a month's worth. */
export const RECENT_DAYS = 31;

export interface FigureOptions {
  /** UTC days, both included; null leaves that end open. */
  from: string | null;
  to: string | null;
  top: number;
  generatedAt: Date;
  /** Email addresses are read only when asked for (personal data); default false. */
  showEmail?: boolean;
}

/**
 * Reads every figure of a report from the views (cost_per_day, cost_per_day_endpoint,
 * pending_billing, ...). Sums are DECIMAL in DuckDB and reach JS as text; JS adds no money.
 */
export async function readReportFigures(
  warehouse: Warehouse,
  options: FigureOptions,
): Promise<ReportFigures> {
  const { connection } = warehouse;
  const period = { from: options.from, to: options.to };
  const ranked = { ...period, top: options.top };

  const [totals = {}] = await queryRows(connection, sqlFile("report/totals.sql"), period);
  const days = await queryRows(connection, sqlFile("report/daily.sql"), period);
  const months = await queryRows(connection, sqlFile("report/monthly.sql"), period);
  const endpoints = await queryRows(connection, sqlFile("report/endpoints.sql"), ranked);
  const calls = await queryRows(connection, sqlFile("report/top_calls.sql"), ranked);
  const [pending = {}] = await queryRows(connection, sqlFile("report/pending.sql"), period);
  const rejects = await queryRows(connection, sqlFile("report/rejects.sql"), ranked);

  const firstDay = optionalText(totals, "first_day");
  const lastDay = optionalText(totals, "last_day");
  const topEndpoints = endpoints.filter((row) => row.rank !== null);
  const other = endpoints.find((row) => row.rank === null);

  return {
    database: warehouse.path,
    generated_at: isoTime(options.generatedAt),
    period: {
      ...period,
      first_day: firstDay,
      last_day: lastDay,
      days_with_calls: count(totals, "days_with_calls"),
      first_call_at: optionalText(totals, "first_call_at"),
      last_call_at: optionalText(totals, "last_call_at"),
    },
    totals: {
      calls: count(totals, "calls"),
      priced_calls: count(totals, "priced_calls"),
      pending_calls: count(totals, "pending_calls"),
      failed_calls: count(totals, "failed_calls"),
      cost_usd: text(totals, "cost_usd"),
    },
    recent: await readRecent(connection, options.to ?? lastDay, options.from ?? firstDay),
    days: days.map((row) => ({
      day: text(row, "day"),
      calls: count(row, "calls"),
      priced_calls: count(row, "priced_calls"),
      pending_calls: count(row, "pending_calls"),
      failed_calls: count(row, "failed_calls"),
      cost_usd: text(row, "cost_usd"),
    })),
    months: months.map((row) => ({
      month: text(row, "month"),
      first_day: text(row, "first_day"),
      last_day: text(row, "last_day"),
      calls: count(row, "calls"),
      priced_calls: count(row, "priced_calls"),
      pending_calls: count(row, "pending_calls"),
      failed_calls: count(row, "failed_calls"),
      cost_usd: text(row, "cost_usd"),
    })),
    endpoints: {
      templates: topEndpoints.length + (other === undefined ? 0 : count(other, "templates")),
      top: topEndpoints.map((row) => ({
        rank: count(row, "rank"),
        endpoint_template: optionalText(row, "endpoint_template"),
        calls: count(row, "calls"),
        priced_calls: count(row, "priced_calls"),
        cost_usd: text(row, "cost_usd"),
      })),
      other:
        other === undefined
          ? null
          : {
              templates: count(other, "templates"),
              calls: count(other, "calls"),
              priced_calls: count(other, "priced_calls"),
              cost_usd: text(other, "cost_usd"),
            },
    },
    emails_shown: options.showEmail === true,
    most_expensive_calls: calls.map((row) => ({
      id: text(row, "id"),
      created_at: text(row, "created_at"),
      method: text(row, "method"),
      endpoint_template: optionalText(row, "endpoint_template"),
      status_code: optionalInteger(row, "status_code"),
      ...(options.showEmail === true ? { email: optionalText(row, "email") } : {}),
      price_usd: text(row, "price_usd"),
      billing_pending: row.billing_pending === true,
    })),
    pending_billing: {
      calls: count(pending, "calls"),
      cost_usd_so_far: text(pending, "cost_usd_so_far"),
      oldest_created_at: optionalText(pending, "oldest_created_at"),
    },
    rejects: {
      records: rejects[0] === undefined ? 0 : count(rejects[0], "records"),
      latest_rejected_at: rejects[0] === undefined ? null : optionalText(rejects[0], "latest_rejected_at"),
      reasons: rejects
        .filter((row) => row.reason !== null)
        .map((row) => ({ reason: text(row, "reason"), records: count(row, "reason_records") })),
    },
    own_calls: await readOwnCallFigures(connection, period),
    invoices: await readInvoiceFigures(connection, period),
    operations: await readOperationFigures(connection, ranked),
    credits: await readBalanceFigures(connection),
    spenders: await readSpenderFigures(connection, period, options.showEmail === true),
    forecast: await readForecastFigures(connection),
  };
}

/**
 * The days of the terminal's daily chart and their calls and spend: the whole period when it has
 * at most SPARKLINE_MAX_DAYS days (a requested month starts on its 1st), else its last RECENT_DAYS.
 */
async function readRecent(
  connection: DuckDBConnection,
  lastDay: string | null,
  firstDay: string | null,
): Promise<ReportFigures["recent"]> {
  if (lastDay === null || firstDay === null) return null;
  const window =
    daySpan(firstDay, lastDay) <= SPARKLINE_MAX_DAYS
      ? { first: firstDay, last: lastDay }
      : trailingWindow(lastDay, RECENT_DAYS, firstDay);
  const [row = {}] = await queryRows(
    connection,
    "SELECT coalesce(sum(calls), 0)::BIGINT AS calls, coalesce(sum(cost_usd), 0)::DECIMAL(38, 6)::VARCHAR AS cost_usd FROM cost_per_day WHERE day BETWEEN $first::DATE AND $last::DATE",
    { first: window.first, last: window.last },
  );
  return {
    first_day: window.first,
    last_day: window.last,
    calls: count(row, "calls"),
    cost_usd: text(row, "cost_usd"),
  };
}
