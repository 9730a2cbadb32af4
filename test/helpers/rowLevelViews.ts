import { queryDb } from "./exportHarness.js";

/**
 * Views as they were before a faster rewrite, kept as the yardstick their rows are compared with:
 * those that read the calls' rollup (call_grains) as they read every call, and those that match the
 * calls to their tokens once per user, org and last 4 (token_key_match) as they matched every call,
 * and rejected_calls as it read every stored id. Each query gives the view's columns, in its order, with its types.
 */
const costPerDayOf = (cut: "day" | "month", ownToo: boolean): string => `
  SELECT
    ${cut},
    count(*) AS calls,
    count(price_usd) AS priced_calls,
    count(*) FILTER (WHERE billing_pending) AS pending_calls,
    coalesce(sum(price_usd), 0)::DECIMAL(38, 6) AS cost_usd
  FROM api_calls_enriched
  ${ownToo ? "" : "WHERE NOT is_own_call"}
  GROUP BY ${cut}`;

/** call_token_match as it matched every call; the two views below read it in its place. */
const CALL_TOKEN_MATCH = `
    WITH candidates AS (
      SELECT c.id AS call_id, 'api_token' AS token_kind, t.id AS token_id, t.label AS token_label
      FROM api_calls AS c
      JOIN api_tokens AS t ON t.user_id = c.user_id AND t.token_last4 = c.token_last4
      UNION ALL
      SELECT c.id, 'service_account', s.id, s.label
      FROM api_calls AS c
      JOIN service_accounts AS s ON s.token_last4 = c.token_last4 AND s.org_id = c.org_id
    ),
    per_call AS (
      SELECT
        call_id,
        count(*) AS candidates,
        any_value(token_kind) AS token_kind,
        any_value(token_id) AS token_id,
        any_value(token_label) AS token_label
      FROM candidates
      GROUP BY call_id
    )
    SELECT
      c.id,
      c.user_id,
      c.org_id,
      c.created_at,
      c.price_usd,
      c.token_last4,
      CASE
        WHEN m.candidates = 1 THEN 'matched'
        WHEN m.candidates > 1 THEN 'ambiguous'
        ELSE 'unmatched'
      END AS match_status,
      coalesce(m.candidates, 0) AS candidates,
      CASE WHEN m.candidates = 1 THEN m.token_kind END AS token_kind,
      CASE WHEN m.candidates = 1 THEN m.token_id END AS token_id,
      CASE WHEN m.candidates = 1 THEN m.token_label END AS token_label
    FROM api_calls AS c
    LEFT JOIN per_call AS m ON m.call_id = c.id`;

export const ROW_LEVEL_VIEWS: Record<string, string> = {
  cost_per_day: costPerDayOf("day", true),
  cost_per_month: costPerDayOf("month", true),
  cost_per_day_excluding_own: costPerDayOf("day", false),
  cost_per_month_excluding_own: costPerDayOf("month", false),
  cost_per_day_endpoint: `
    SELECT
      day,
      endpoint_template,
      count(*) AS calls,
      count(price_usd) AS priced_calls,
      coalesce(sum(price_usd), 0)::DECIMAL(38, 6) AS cost_usd
    FROM api_calls_enriched
    GROUP BY day, endpoint_template`,
  cost_per_endpoint: `
    SELECT
      endpoint_template,
      count(*) AS calls,
      count(price_usd) AS priced_calls,
      count(*) FILTER (WHERE billing_pending) AS pending_calls,
      coalesce(sum(price_usd), 0)::DECIMAL(38, 6) AS cost_usd,
      max(price_usd) AS max_price_usd,
      min(created_at) AS first_call_at,
      max(created_at) AS last_call_at
    FROM api_calls_enriched
    GROUP BY endpoint_template`,
  own_calls_per_month: `
    SELECT
      month,
      count(*) AS calls,
      count(*) FILTER (WHERE is_own_call) AS own_calls,
      coalesce(sum(price_usd), 0)::DECIMAL(38, 6) AS cost_usd,
      coalesce(sum(price_usd) FILTER (WHERE is_own_call), 0)::DECIMAL(38, 6) AS own_cost_usd,
      coalesce(sum(price_usd) FILTER (WHERE NOT is_own_call), 0)::DECIMAL(38, 6) AS cost_excluding_own_usd
    FROM api_calls_enriched
    GROUP BY month`,
  invoice_item_calls: `
    SELECT
      stripe_invoice_item_id AS invoice_item,
      count(*) AS calls,
      coalesce(sum(price_usd), 0)::DECIMAL(38, 6) AS calls_cost_usd,
      min(created_month) AS first_call_month,
      max(created_month) AS last_call_month
    FROM api_calls
    WHERE stripe_invoice_item_id IS NOT NULL AND stripe_invoice_item_id <> ''
    GROUP BY stripe_invoice_item_id`,
  call_token_match: CALL_TOKEN_MATCH,
  cost_per_token_label: `
    SELECT
      match_status,
      token_kind,
      token_label,
      count(DISTINCT token_id) AS tokens,
      count(*) AS calls,
      count(price_usd) AS priced_calls,
      coalesce(sum(price_usd), 0)::DECIMAL(38, 6) AS cost_usd
    FROM (${CALL_TOKEN_MATCH}) AS call_token_match
    GROUP BY match_status, token_kind, token_label
    ORDER BY cost_usd DESC, match_status, token_kind, token_label`,
  cost_per_service_account: `
    SELECT
      s.id AS service_account_id,
      s.label,
      s.is_valid,
      count(m.id) AS calls,
      count(m.price_usd) AS priced_calls,
      coalesce(sum(m.price_usd), 0)::DECIMAL(38, 6) AS cost_usd
    FROM service_accounts AS s
    LEFT JOIN (${CALL_TOKEN_MATCH}) AS m ON m.token_kind = 'service_account' AND m.token_id = s.id
    GROUP BY s.id, s.label, s.is_valid
    ORDER BY cost_usd DESC, s.id`,
};

/**
 * monthly_reconciliation's columns taken from the calls, as it took them from every call and from
 * call_billing_class; the other columns come from the invoices, as before.
 */
export const ROW_LEVEL_MONTHLY_CALLS = `
  WITH usage AS (
    SELECT created_month AS month, count(*) AS calls, count(price_usd) AS priced_calls,
      coalesce(sum(price_usd), 0) AS usage_cost_usd
    FROM api_calls GROUP BY 1
  ),
  classes AS (
    SELECT
      month,
      count(*) FILTER (WHERE billing_class = 'invoiced') AS invoiced_calls,
      coalesce(sum(price_usd) FILTER (WHERE billing_class = 'invoiced'), 0) AS invoiced_usage_usd,
      count(*) FILTER (WHERE reason = 'other_currency') AS other_currency_calls,
      count(*) FILTER (WHERE billing_class = 'not_billed') AS not_billed_calls,
      coalesce(sum(price_usd) FILTER (WHERE billing_class = 'not_billed'), 0) AS not_billed_usd,
      count(*) FILTER (WHERE billing_class = 'awaiting_invoice') AS awaiting_calls,
      coalesce(sum(price_usd) FILTER (WHERE billing_class = 'awaiting_invoice'), 0) AS awaiting_usd,
      count(*) FILTER (WHERE reason = 'invoice_incomplete') AS on_incomplete_invoice_calls,
      count(*) FILTER (WHERE billing_class = 'unexplained') AS unexplained_calls,
      coalesce(sum(price_usd) FILTER (WHERE billing_class = 'unexplained'), 0) AS unexplained_usd
    FROM call_billing_class GROUP BY month
  )
  SELECT
    u.month,
    u.calls,
    u.priced_calls,
    u.usage_cost_usd::DECIMAL(38, 6) AS usage_cost_usd,
    coalesce(c.invoiced_calls, 0) AS invoiced_calls,
    coalesce(c.invoiced_usage_usd, 0)::DECIMAL(38, 6) AS invoiced_usage_usd,
    coalesce(c.other_currency_calls, 0) AS other_currency_calls,
    coalesce(c.not_billed_calls, 0) AS not_billed_calls,
    coalesce(c.not_billed_usd, 0)::DECIMAL(38, 6) AS not_billed_usd,
    coalesce(c.awaiting_calls, 0) AS awaiting_calls,
    coalesce(c.awaiting_usd, 0)::DECIMAL(38, 6) AS awaiting_usd,
    coalesce(c.on_incomplete_invoice_calls, 0) AS on_incomplete_invoice_calls,
    coalesce(c.unexplained_calls, 0) AS unexplained_calls,
    coalesce(c.unexplained_usd, 0)::DECIMAL(38, 6) AS unexplained_usd
  FROM usage AS u LEFT JOIN classes AS c USING (month)`;

/** rejected_calls as it sought every rejected id among every stored call, not its days'. */
export const ROW_LEVEL_REJECTED_CALLS = `
  WITH calls AS (
    SELECT
      record_id,
      rejected_at,
      reason,
      TRY_CAST(json_extract_string(raw_json, '$.created_at') AS TIMESTAMPTZ) AS created_at,
      nullif(json_extract_string(raw_json, '$.stripe_invoice_item_id'), '') AS invoice_item,
      TRY_CAST(json_extract_string(raw_json, '$.price') AS DECIMAL(38, 6)) AS price
    FROM rejects
    WHERE json_valid(raw_json)
      AND json_type(raw_json) = 'OBJECT'
      AND json_extract_string(raw_json, '$.method') IS NOT NULL
      AND json_extract_string(raw_json, '$.created_at') IS NOT NULL
  )
  SELECT
    record_id,
    rejected_at,
    reason,
    created_at,
    CAST(date_trunc('month', timezone('UTC', created_at)) AS DATE) AS month,
    invoice_item,
    price AS price_usd
  FROM calls
  WHERE record_id IS NULL OR TRY_CAST(record_id AS UUID) IS NULL
    OR TRY_CAST(record_id AS UUID) NOT IN (
      SELECT id FROM api_calls WHERE id IN (SELECT TRY_CAST(record_id AS UUID) FROM calls)
    )`;

/** The same columns of monthly_reconciliation itself (its USD rows: the calls are priced in USD). */
export const MONTHLY_CALLS = `
  SELECT month, calls, priced_calls, usage_cost_usd, invoiced_calls, invoiced_usage_usd,
    other_currency_calls, not_billed_calls, not_billed_usd, awaiting_calls, awaiting_usd,
    on_incomplete_invoice_calls, unexplained_calls, unexplained_usd
  FROM monthly_reconciliation
  WHERE currency = 'USD' AND calls > 0`;

/** Rows in one query and not the other (either way), at most 5. */
export async function differing(db: string, a: string, b: string): Promise<Record<string, unknown>[]> {
  return queryDb(
    db,
    `SELECT 'view only' AS side, * FROM ((${a}) EXCEPT ALL (${b}))
     UNION ALL SELECT 'row level only', * FROM ((${b}) EXCEPT ALL (${a}))
     LIMIT 5`,
  );
}

/** A query's columns, each as `name TYPE`, in order. */
export async function columnTypes(db: string, query: string): Promise<string[]> {
  const rows = await queryDb(db, `DESCRIBE ${query}`);
  return rows.map((row) => `${String(row.column_name)} ${String(row.column_type)}`);
}
