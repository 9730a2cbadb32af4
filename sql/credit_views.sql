-- Views of the API credits (balance_snapshots). Money stays DECIMAL: a rate is computed in whole
-- micro-dollars with integer division (rounded down to the micro-dollar), never in floating point.

-- $usd spread over $elapsed_us microseconds, as USD per day (86,400,000,000 us), rounded down to the
-- micro-dollar; NULL when the time is not positive. Widened to DECIMAL(38, 6) first: a sum of
-- DECIMAL(18, 6) times a million overflows DECIMAL(18).
CREATE OR REPLACE MACRO usd_per_day(usd, elapsed_us) AS
  CASE WHEN elapsed_us > 0 THEN
    CAST(
      CAST((CAST(CAST(usd AS DECIMAL(38, 6)) * 1000000 AS HUGEINT) * 86400000000) // elapsed_us AS DECIMAL(38, 0))
        * 0.000001
      AS DECIMAL(18, 6))
  END;

-- The burn between consecutive snapshots: the credits' monetary value (monthly + stable) consumed
-- from one snapshot to the next, and that per day. A pair across which the value grew is not
-- counted (`counted` false, consumed and burn NULL): a monthly refresh (the monthly value rose, or
-- monthly_api_credits_refresh_at moved) or a grant of stable credits, which are not spend. Nor is a
-- pair that starts with nothing left: the value cannot fall below zero, so its 0 consumed says
-- nothing about the rate of spend.
CREATE OR REPLACE VIEW credit_burn AS
WITH ordered AS (
  SELECT
    run_id,
    taken_at,
    monthly_api_credits_remaining_monetary_value AS monthly_usd,
    monthly_api_credits_remaining_monetary_value + stable_api_credits_remaining_monetary_value AS remaining_usd,
    monthly_api_credits_refresh_at AS refresh_at,
    lag(taken_at) OVER w AS previous_taken_at,
    lag(monthly_api_credits_remaining_monetary_value) OVER w AS previous_monthly_usd,
    lag(monthly_api_credits_remaining_monetary_value + stable_api_credits_remaining_monetary_value) OVER w
      AS previous_remaining_usd,
    lag(monthly_api_credits_refresh_at) OVER w AS previous_refresh_at
  FROM balance_snapshots
  WINDOW w AS (ORDER BY taken_at, run_id)
),
pairs AS (
  SELECT
    *,
    epoch_us(taken_at) - epoch_us(previous_taken_at) AS elapsed_us,
    monthly_usd <= previous_monthly_usd
      AND refresh_at IS NOT DISTINCT FROM previous_refresh_at
      AND remaining_usd <= previous_remaining_usd
      AND previous_remaining_usd > 0
      AND taken_at > previous_taken_at AS counted
  FROM ordered
  WHERE previous_taken_at IS NOT NULL
)
SELECT
  run_id,
  previous_taken_at,
  taken_at,
  elapsed_us,
  previous_remaining_usd::DECIMAL(18, 6) AS previous_remaining_usd,
  remaining_usd::DECIMAL(18, 6) AS remaining_usd,
  counted,
  CASE WHEN counted THEN (previous_remaining_usd - remaining_usd)::DECIMAL(18, 6) END AS consumed_usd,
  CASE WHEN counted THEN usd_per_day(previous_remaining_usd - remaining_usd, elapsed_us) END AS burn_usd_per_day
FROM pairs
ORDER BY taken_at, run_id;

-- The runway at the latest snapshot: its remaining value divided by the current burn. The current
-- burn is the counted consumption of the snapshot pairs that end in the 30 days up to the latest
-- snapshot, over their time; without such a pair (one snapshot, say), the priced spend of the
-- stored calls created in those 30 days (from the first stored call, when the history is shorter),
-- per day. runs_out_at is NULL when the burn is 0 (or unknown), or more than 100 years away. Credits
-- already at zero have a runway of 0 whatever the burn: they ran out by the latest snapshot, which
-- is the run-out instant given (the snapshots cannot say how much earlier).
CREATE OR REPLACE VIEW credit_runway AS
WITH latest AS (
  SELECT
    run_id,
    taken_at,
    monthly_api_credits_remaining_monetary_value AS monthly_usd,
    stable_api_credits_remaining_monetary_value AS stable_usd,
    monthly_api_credits_refresh_at AS refresh_at
  FROM balance_snapshots
  ORDER BY taken_at DESC, run_id DESC
  LIMIT 1
),
recent_pairs AS (
  SELECT sum(b.consumed_usd) AS consumed_usd, sum(b.elapsed_us) AS elapsed_us, count(*) AS pairs
  FROM credit_burn AS b, latest AS l
  WHERE b.counted AND b.taken_at > l.taken_at - INTERVAL 30 DAY
),
recent_spend AS (
  SELECT
    coalesce(sum(c.price_usd), 0) AS spend_usd,
    epoch_us(l.taken_at) - epoch_us(greatest(l.taken_at - INTERVAL 30 DAY, min(c.created_at))) AS elapsed_us
  FROM latest AS l
  LEFT JOIN api_calls AS c ON c.created_at > l.taken_at - INTERVAL 30 DAY AND c.created_at <= l.taken_at
  GROUP BY l.taken_at
),
rates AS (
  SELECT
    l.*,
    (l.monthly_usd + l.stable_usd)::DECIMAL(18, 6) AS remaining_usd,
    p.pairs AS burn_pairs,
    CASE WHEN p.pairs > 0 THEN usd_per_day(p.consumed_usd, p.elapsed_us) END AS snapshot_burn_usd_per_day,
    usd_per_day(s.spend_usd, s.elapsed_us) AS spend_usd_per_day
  FROM latest AS l, recent_pairs AS p, recent_spend AS s
),
runway AS (
  SELECT
    *,
    coalesce(snapshot_burn_usd_per_day, spend_usd_per_day) AS burn_usd_per_day,
    CASE
      WHEN snapshot_burn_usd_per_day IS NOT NULL THEN 'snapshots'
      WHEN spend_usd_per_day IS NOT NULL THEN 'api_calls'
    END AS burn_source
  FROM rates
),
span AS (
  SELECT
    *,
    CASE WHEN remaining_usd <= 0 THEN 0 WHEN burn_usd_per_day > 0 THEN
      (CAST(CAST(remaining_usd AS DECIMAL(38, 6)) * 1000000 AS HUGEINT) * 86400000000)
        // CAST(CAST(burn_usd_per_day AS DECIMAL(38, 6)) * 1000000 AS HUGEINT)
    END AS runway_us
  FROM runway
)
SELECT
  run_id,
  taken_at,
  remaining_usd,
  monthly_usd,
  stable_usd,
  refresh_at AS monthly_refresh_at,
  burn_pairs,
  snapshot_burn_usd_per_day,
  spend_usd_per_day,
  burn_usd_per_day,
  burn_source,
  round(runway_us / 86400000000, 1) AS runway_days,
  CASE WHEN runway_us <= 3155760000000000 THEN taken_at + to_microseconds(CAST(runway_us AS BIGINT)) END
    AS runs_out_at,
  CASE WHEN runway_us <= 3155760000000000 THEN
    CAST(timezone('UTC', taken_at + to_microseconds(CAST(runway_us AS BIGINT))) AS DATE)
  END AS runs_out_on
FROM span;
-- The credits seen consumed per UTC month: the counted consumption of the balance snapshot pairs
-- taken within the month (a pair across months, or across a refresh, says nothing about one
-- month), and the plan's monthly allowance as the month's latest snapshot gives it
-- (subscription_details.modeling_app.monthly_pay_as_you_go_api_credits_monetary_value, read from
-- the JSON text: no double).
CREATE OR REPLACE VIEW monthly_credits AS
WITH pairs AS (
  SELECT
    CAST(date_trunc('month', timezone('UTC', taken_at)) AS DATE) AS month,
    consumed_usd
  FROM credit_burn
  WHERE counted
    AND date_trunc('month', timezone('UTC', taken_at)) = date_trunc('month', timezone('UTC', previous_taken_at))
),
allowance AS (
  SELECT
    CAST(date_trunc('month', timezone('UTC', taken_at)) AS DATE) AS month,
    arg_max(
      TRY_CAST(
        json_extract_string(subscription_details, '$.modeling_app.monthly_pay_as_you_go_api_credits_monetary_value')
        AS DECIMAL(18, 6)
      ),
      taken_at
    ) AS monthly_allowance_usd
  FROM balance_snapshots
  GROUP BY 1
)
SELECT
  coalesce(p.month, a.month) AS month,
  p.consumed_usd::DECIMAL(38, 6) AS credits_consumed_usd,
  a.monthly_allowance_usd
FROM (SELECT month, sum(consumed_usd) AS consumed_usd FROM pairs GROUP BY month) AS p
FULL OUTER JOIN allowance AS a ON a.month = p.month;

