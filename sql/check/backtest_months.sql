-- The months a backtest can judge: complete (every day before the last stored day, which may be
-- partial) and with at least 14 days of history before their 7th day, each with its actual spend.
WITH bounds AS (SELECT min(day) AS first_day, max(day) AS last_day FROM cost_per_day),
months AS (
  SELECT CAST(date_trunc('month', day) AS DATE) AS month, sum(cost_usd)::DECIMAL(38, 6) AS cost_usd
  FROM cost_per_day
  GROUP BY 1
)
SELECT strftime(m.month, '%Y-%m-%d') AS month, CAST(m.cost_usd AS VARCHAR) AS cost_usd
FROM months AS m, bounds AS b
WHERE CAST(m.month + INTERVAL 1 MONTH AS DATE) <= b.last_day AND m.month + 7 - b.first_day >= 14
ORDER BY m.month;
