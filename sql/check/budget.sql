-- The monthly budget: the month-to-date and the forecast spend of the month of the last complete
-- day (forecast_month_at), each against its share of the budget. One row per threshold reached.
-- Shares are exact: budget x percent x 0.01 in DECIMAL.
WITH f AS (SELECT * FROM forecast_month_at(CAST($as_of AS DATE))),
limits AS (
  SELECT
    CAST(CAST($usd AS DECIMAL(38, 6)) * CAST($actual_percent AS DECIMAL(18, 6)) * 0.01 AS DECIMAL(38, 6)) AS actual_limit,
    CAST(CAST($usd AS DECIMAL(38, 6)) * CAST($forecast_percent AS DECIMAL(18, 6)) * 0.01 AS DECIMAL(38, 6)) AS forecast_limit
)
SELECT
  'budget-actual' AS rule,
  strftime(f.month, '%Y-%m') AS period,
  CAST(f.month_to_date_usd AS VARCHAR) AS value,
  CAST(l.actual_limit AS VARCHAR) AS threshold,
  f.days_known || ' days in' AS note
FROM f, limits AS l
WHERE f.month_to_date_usd >= l.actual_limit AND f.month_to_date_usd > 0
UNION ALL
SELECT
  'budget-forecast',
  strftime(f.month, '%Y-%m'),
  CAST(f.forecast_usd AS VARCHAR),
  CAST(l.forecast_limit AS VARCHAR),
  'range ' || CAST(f.forecast_low_usd AS VARCHAR) || ' to ' || CAST(f.forecast_high_usd AS VARCHAR) || ', '
    || f.days_known || ' days in'
FROM f, limits AS l
WHERE f.forecast_usd >= l.forecast_limit AND f.forecast_usd > 0 AND f.days_ahead > 0;
