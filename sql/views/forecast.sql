-- The month-end forecast: month-to-date spend plus each remaining day at a rate learned from the
-- trailing weeks, aware of the weekday. As of the start of a UTC day (as_of): the days before it are
-- complete, and the month forecast is that of the last complete day (as_of - 1), so on the 1st the
-- month just ended is judged whole. Learned from the 56 days before as_of (fewer when the history is
-- shorter; at least 14, else no forecast): each weekday's mean spend over the mean day is its factor,
-- the last 14 days' spend over their factors is the level, a remaining day is forecast at level x its
-- factor. Money stays DECIMAL: month-to-date and the level's sums are exact; only the dimensionless
-- factors are ratios, cast to DECIMAL(18, 9) before they scale money. The interval is the forecast
-- +- 1.96 x the daily residuals' standard deviation x sqrt(n + n^2 / 14) for n remaining days (the
-- days' own noise plus the level's), an estimate computed in floating point and rounded to the
-- micro-dollar; its low end never goes below month-to-date.
CREATE OR REPLACE MACRO forecast_days_at(as_of_day) AS TABLE
WITH p AS (
  SELECT
    CAST(as_of_day AS DATE) AS as_of,
    CAST(date_trunc('month', CAST(as_of_day AS DATE) - 1) + INTERVAL 1 MONTH AS DATE) AS next_month,
    (SELECT min(day) FROM cost_per_day) AS first_day
),
history AS (
  SELECT h.day, isodow(h.day) AS weekday, coalesce(c.cost_usd, 0)::DECIMAL(38, 6) AS cost_usd
  FROM (
    SELECT CAST(unnest(generate_series(greatest(as_of - 56, first_day), as_of - 1, INTERVAL 1 DAY)) AS DATE) AS day
    FROM p
  ) AS h
  LEFT JOIN cost_per_day AS c ON c.day = h.day
),
mean_day AS (SELECT sum(cost_usd) / count(*) AS usd, count(*) AS days FROM history),
factors AS (
  SELECT h.weekday, CASE WHEN m.usd > 0 THEN (sum(h.cost_usd) / count(*)) / m.usd ELSE 1 END AS factor
  FROM history AS h, mean_day AS m
  GROUP BY h.weekday, m.usd
),
recent AS (
  SELECT sum(h.cost_usd) AS cost_usd, sum(coalesce(f.factor, 1)) AS weight
  FROM history AS h
  LEFT JOIN factors AS f ON f.weekday = h.weekday, p
  WHERE h.day >= p.as_of - 14
),
residuals AS (
  SELECT stddev_samp(CAST(h.cost_usd AS DOUBLE) - CAST(k.cost_usd AS DOUBLE) * coalesce(f.factor, 1) / k.weight) AS sd
  FROM history AS h
  LEFT JOIN factors AS f ON f.weekday = h.weekday, recent AS k, p
  WHERE h.day >= p.as_of - 28 AND k.weight > 0
),
remaining AS (
  SELECT CAST(unnest(generate_series(as_of, next_month - 1, INTERVAL 1 DAY)) AS DATE) AS day FROM p
)
SELECT
  r.day,
  CASE WHEN m.days >= 14 AND k.weight > 0 THEN
    CAST(k.cost_usd * CAST(coalesce(f.factor, 1) / k.weight AS DECIMAL(18, 9)) AS DECIMAL(38, 6))
  END AS forecast_usd,
  s.sd AS residual_sd_usd
FROM remaining AS r
LEFT JOIN factors AS f ON f.weekday = isodow(r.day), recent AS k, mean_day AS m, residuals AS s
ORDER BY r.day;
COMMENT ON MACRO TABLE forecast_days_at IS 'forecast_days_at(as_of_day): each remaining day of the month of as_of_day - 1, from as_of_day on: its forecast spend (level x weekday factor, USD DECIMAL(38,6); NULL with under 14 days of history) and the daily residuals'' standard deviation (DOUBLE, an estimate).';

CREATE OR REPLACE MACRO forecast_month_at(as_of_day) AS TABLE
WITH p AS (
  SELECT
    CAST(as_of_day AS DATE) AS as_of,
    CAST(date_trunc('month', CAST(as_of_day AS DATE) - 1) AS DATE) AS month,
    CAST(date_trunc('month', CAST(as_of_day AS DATE) - 1) + INTERVAL 1 MONTH AS DATE) AS next_month,
    (SELECT min(day) FROM cost_per_day) AS first_day
),
to_date AS (
  SELECT coalesce(sum(c.cost_usd), 0)::DECIMAL(38, 6) AS usd
  FROM cost_per_day AS c, p
  WHERE c.day >= p.month AND c.day < least(p.as_of, p.next_month)
),
ahead AS (
  SELECT
    count(*) AS days,
    sum(forecast_usd)::DECIMAL(38, 6) AS usd,
    count(forecast_usd) AS forecast_days,
    coalesce(max(residual_sd_usd), 0) AS sd
  FROM forecast_days_at(as_of_day)
),
joined AS (
  SELECT
    p.*,
    t.usd AS month_to_date_usd,
    a.days AS days_ahead,
    CASE WHEN a.days = 0 THEN 0 WHEN a.forecast_days = a.days THEN a.usd END::DECIMAL(38, 6) AS ahead_usd,
    CAST(1.96 * a.sd * sqrt(a.days + a.days * a.days / 14.0) AS DECIMAL(38, 6)) AS half_width_usd
  FROM p, to_date AS t, ahead AS a
  WHERE p.as_of IS NOT NULL
)
SELECT
  month,
  as_of,
  CAST(next_month - month AS INTEGER) AS days_in_month,
  CAST(least(as_of, next_month) - month AS INTEGER) AS days_known,
  CAST(days_ahead AS INTEGER) AS days_ahead,
  CAST(greatest(0, least(56, as_of - first_day)) AS INTEGER) AS history_days,
  month_to_date_usd,
  ahead_usd,
  (month_to_date_usd + ahead_usd)::DECIMAL(38, 6) AS forecast_usd,
  greatest(month_to_date_usd, month_to_date_usd + ahead_usd - half_width_usd)::DECIMAL(38, 6) AS forecast_low_usd,
  (month_to_date_usd + ahead_usd + half_width_usd)::DECIMAL(38, 6) AS forecast_high_usd
FROM joined;
COMMENT ON MACRO TABLE forecast_month_at IS 'forecast_month_at(as_of_day): the month-end forecast of the month of as_of_day - 1, as of the start of UTC day as_of_day, with its interval (see forecast_month).';

-- The first day not known: the last stored day is complete once an export that completed started
-- after it ended (its calls were all made by then), else it is taken as incomplete (a nightly run
-- stores part of its day). The start, not the end: a run listing calls from 23:50 to 00:10 may
-- have missed the day's last minutes.
CREATE OR REPLACE VIEW forecast_as_of AS
SELECT
  CASE
    WHEN (SELECT max(timezone('UTC', started_at)) FROM runs WHERE status = 'completed')
      >= CAST(max(day) + 1 AS TIMESTAMP) THEN max(day) + 1
    ELSE max(day)
  END AS as_of
FROM cost_per_day;
COMMENT ON VIEW forecast_as_of IS 'The first UTC day the forecast does not know: the day after the last stored day when a completed export started after that day ended, else the last stored day (taken as incomplete).';
COMMENT ON COLUMN forecast_as_of.as_of IS 'The first UTC day not known (DATE); NULL without any stored day.';

CREATE OR REPLACE VIEW forecast_month AS
SELECT * FROM forecast_month_at((SELECT as_of FROM forecast_as_of));
COMMENT ON VIEW forecast_month IS 'The month-end spend forecast of the month of the last complete stored day: month-to-date plus a weekday-aware rate learned from the trailing 56 days, with a 95% (nominal) interval. docs/check.md.';
COMMENT ON COLUMN forecast_month.month IS 'The UTC month forecast (its first day).';
COMMENT ON COLUMN forecast_month.as_of IS 'The first UTC day not known (forecast_as_of): the last stored day, or the day after it once an export started after it ended; the days before it are month-to-date.';
COMMENT ON COLUMN forecast_month.days_in_month IS 'Days in the month.';
COMMENT ON COLUMN forecast_month.days_known IS 'Complete days of the month before as_of.';
COMMENT ON COLUMN forecast_month.days_ahead IS 'Days of the month from as_of on, forecast.';
COMMENT ON COLUMN forecast_month.history_days IS 'Days before as_of the rate is learned from (at most 56; under 14 gives no forecast).';
COMMENT ON COLUMN forecast_month.month_to_date_usd IS 'Exact spend (price_usd) of the month''s complete days, USD DECIMAL(38,6).';
COMMENT ON COLUMN forecast_month.ahead_usd IS 'Forecast spend of the days ahead, USD DECIMAL(38,6); NULL with under 14 days of history.';
COMMENT ON COLUMN forecast_month.forecast_usd IS 'month_to_date_usd + ahead_usd: the forecast month-end spend, USD DECIMAL(38,6).';
COMMENT ON COLUMN forecast_month.forecast_low_usd IS 'Low end of the 95% (nominal) interval of the month-end spend, never below month_to_date_usd.';
COMMENT ON COLUMN forecast_month.forecast_high_usd IS 'High end of the 95% (nominal) interval of the month-end spend.';

CREATE OR REPLACE VIEW forecast_days AS
SELECT day, forecast_usd FROM forecast_days_at((SELECT as_of FROM forecast_as_of));
COMMENT ON VIEW forecast_days IS 'The days forecast_month forecasts, each with its forecast spend: the forecast line of the report''s daily chart.';
COMMENT ON COLUMN forecast_days.day IS 'A UTC day of the month forecast, from as_of on.';
COMMENT ON COLUMN forecast_days.forecast_usd IS 'Its forecast spend: the level x its weekday''s factor, USD DECIMAL(38,6); NULL with under 14 days of history.';
