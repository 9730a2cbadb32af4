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
  email: string | null;
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
  /** cost_per_operation_type has no date: its rows cover the whole history. */
  by_type_and_status: { scope: "all_time"; rows: OperationTypeFigure[] };
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
  /** The last (up to) 30 days of the period, for the terminal chart. */
  recent: { first_day: string; last_day: string; calls: number; cost_usd: string } | null;
  /** Each UTC day of the period that has calls, as cost_per_day has it (plus failures). */
  days: DayFigure[];
  endpoints: {
    templates: number;
    top: EndpointFigure[];
    /** The templates after the top ones, summed; null when there are none. */
    other: { templates: number; calls: number; priced_calls: number; cost_usd: string } | null;
  };
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
  /** Spend per person and per token label; present only when the database has call_token_match. */
  spenders: SpenderFigures | null;
}
