-- The last complete day (the day before as_of) against its baseline: the lower median of the same
-- weekday in the 4 weeks before it, or of the 28 days before it (quantile_disc: an actual day's
-- spend, exact). Days without calls count as 0; days before the first stored call are not history.
-- One row when the day reaches factor x the baseline and the minimum amount.
WITH p AS (
  SELECT CAST($as_of AS DATE) - 1 AS day, (SELECT min(day) FROM cost_per_day) AS first_day
),
spend AS (
  SELECT d.day, coalesce(c.cost_usd, 0)::DECIMAL(38, 6) AS cost_usd
  FROM (
    SELECT CAST(unnest(generate_series(greatest(p.day - 28, p.first_day), p.day, INTERVAL 1 DAY)) AS DATE) AS day
    FROM p
  ) AS d
  LEFT JOIN cost_per_day AS c ON c.day = d.day
),
base AS (
  SELECT quantile_disc(s.cost_usd, 0.5) AS median_usd, count(*) AS days
  FROM spend AS s, p
  WHERE s.day < p.day AND ($baseline = '28d' OR isodow(s.day) = isodow(p.day))
),
judged AS (
  SELECT
    p.day,
    s.cost_usd,
    b.days,
    b.median_usd,
    CAST(b.median_usd * CAST($factor AS DECIMAL(18, 6)) AS DECIMAL(38, 6)) AS limit_usd
  FROM p
  JOIN spend AS s ON s.day = p.day, base AS b
  WHERE b.days > 0
)
SELECT
  'spike' AS rule,
  strftime(day, '%Y-%m-%d') AS period,
  CAST(cost_usd AS VARCHAR) AS value,
  CAST(limit_usd AS VARCHAR) AS threshold,
  'usual ' || CAST(median_usd AS VARCHAR) || ' (median of ' || days || ' days), x' || $factor AS note
FROM judged
WHERE cost_usd >= limit_usd AND cost_usd >= CAST($min AS DECIMAL(38, 6)) AND cost_usd > 0;
