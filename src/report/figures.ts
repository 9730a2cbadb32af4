import type { CreditFigures } from "./readBalanceFigures.js";
import type { ForecastFigures } from "./readForecastFigures.js";
import type { InvoiceFigures } from "./readInvoiceFigures.js";
import type { SpenderFigures } from "./readSpenderFigures.js";

/**
 * The figures of a report: what the terminal, `--json` and the HTML page show. Money is always an
 * exact decimal string as DuckDB printed it from a DECIMAL sum (never a JS number); counts are
 * plain numbers; days are UTC `YYYY-MM-DD`; instants are ISO 8601 UTC with microseconds.
 * Keys are snake_case: the object is the `--json` output as it is.
 */
export interface DayFigure {
  day: string;
  calls: number;
  priced_calls: number;
  pending_calls: number;
  /** Calls answered with status_code >= 400. */
  failed_calls: number;
  cost_usd: string;
}

/**
 * A UTC calendar month of the period (finance reconciles by invoice month): the sums of its days in
 * the period. Every month the period touches has a row, months without calls included.
 */
export interface MonthFigure {
  /** `YYYY-MM`. */
  month: string;
  /**
   * The month's days inside the period: the whole month unless --from / --to cut into it (an open
   * end is the first or last day with calls, so the current month ends on the last day exported).
   */
  first_day: string;
  last_day: string;
  calls: number;
  priced_calls: number;
  pending_calls: number;
  /** Calls answered with status_code >= 400. */
  failed_calls: number;
  cost_usd: string;
}

export interface EndpointFigure {
  /** 1 for the most expensive template. */
  rank: number;
  /** null for calls whose endpoint had no known template. */
  endpoint_template: string | null;
  calls: number;
  priced_calls: number;
  cost_usd: string;
}

export interface CallFigure {
  id: string;
  created_at: string;
  method: string;
  endpoint_template: string | null;
  status_code: number | null;
  /** Personal data: present only with --show-email (null when the call has none). */
  email?: string | null;
  price_usd: string;
  billing_pending: boolean;
}

export interface OperationTypeFigure {
  operation_type: string | null;
  status: string | null;
  operations: number;
  cost_usd: string;
}

export interface BilledFailedFigure {
  id: string;
  operation_type: string | null;
  error: string | null;
  price_usd: string;
  created_at: string | null;
}

export interface OperationFigures {
  /**
   * cost_per_operation_type has no date: its rows cover the operations stored, whatever the period.
   * An export fetches those of the calls created within --operations-window (35 days) of its run,
   * and the older ones only with --operations all; `first_day` and `last_day` are the UTC days of
   * the first and last stored operation (null when none is stored).
   */
  by_type_and_status: {
    scope: "stored_operations";
    first_day: string | null;
    last_day: string | null;
    rows: OperationTypeFigure[];
  };
  /** Failed operations billed anyway, created during the period. */
  billed_failed: { operations: number; cost_usd: string; most_expensive: BilledFailedFigure[] };
}

/**
 * The exporter's own calls in the period: the API lists each request it serves as a call, so every
 * export adds its pages and operation fetches to the next night's listing.
 */
export interface OwnCallFigures {
  calls: number;
  cost_usd: string;
  /** The period's spend on every other call. */
  cost_usd_excluding_own: string;
}

export interface ReportFigures {
  database: string;
  generated_at: string;
  period: {
    /** The requested bounds (--from / --to), null when open. */
    from: string | null;
    to: string | null;
    /** The UTC days of the first and last call in the period (null when it has none). */
    first_day: string | null;
    last_day: string | null;
    days_with_calls: number;
    first_call_at: string | null;
    last_call_at: string | null;
  };
  totals: {
    calls: number;
    priced_calls: number;
    pending_calls: number;
    failed_calls: number;
    cost_usd: string;
  };
  /**
   * The days of the terminal's daily chart: every day of the period when it has at most
   * SPARKLINE_MAX_DAYS, else its last RECENT_DAYS days; null without a period or calls.
   */
  recent: { first_day: string; last_day: string; calls: number; cost_usd: string } | null;
  /** Each UTC day of the period that has calls, as cost_per_day has it (plus failures). */
  days: DayFigure[];
  /** Each UTC month of the period, from its first month to its last, zeros included. */
  months: MonthFigure[];
  endpoints: {
    templates: number;
    top: EndpointFigure[];
    /** The templates after the top ones, summed; null when there are none. */
    other: { templates: number; calls: number; priced_calls: number; cost_usd: string } | null;
  };
  /** True when --show-email asked for the email addresses of the most expensive calls. */
  emails_shown: boolean;
  most_expensive_calls: CallFigure[];
  pending_billing: { calls: number; cost_usd_so_far: string; oldest_created_at: string | null };
  rejects: {
    records: number;
    latest_rejected_at: string | null;
    reasons: { reason: string; records: number }[];
  };
  /** Present only when the database has api_calls_enriched.is_own_call. */
  own_calls: OwnCallFigures | null;
  /** Present only when the database has the operation views. */
  operations: OperationFigures | null;
  /** Present only when the database has the invoice reconciliation views. */
  invoices: InvoiceFigures | null;
  /** The API credits at the latest balance snapshot; null on a database without one. */
  credits: CreditFigures | null;
  /** Spend per person and per token label; present only when the database has call_token_match. */
  spenders: SpenderFigures | null;
  /** The month-end forecast (forecast_month); null without the view or 14 days of history. */
  forecast?: ForecastFigures | null;
}
