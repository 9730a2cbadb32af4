/**
 * The views that read the calls' rollup (call_grains), each as it reads every call instead: the
 * definitions they had before the rollup, kept as the yardstick their rows are compared with.
 * Each query gives the view's columns, in its order, with its types.
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

/** The same columns of monthly_reconciliation itself (its USD rows: the calls are priced in USD). */
export const MONTHLY_CALLS = `
  SELECT month, calls, priced_calls, usage_cost_usd, invoiced_calls, invoiced_usage_usd,
    other_currency_calls, not_billed_calls, not_billed_usd, awaiting_calls, awaiting_usd,
    on_incomplete_invoice_calls, unexplained_calls, unexplained_usd
  FROM monthly_reconciliation
  WHERE currency = 'USD' AND calls > 0`;
