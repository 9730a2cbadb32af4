-- Views of the API credits (balance_snapshots). Money stays DECIMAL: a rate is computed in whole
-- micro-dollars with integer division (rounded down to the micro-dollar), never in floating point.
-- Sums and rates are DECIMAL(38, 6): two stored DECIMAL(18, 6) values can add up beyond DECIMAL(18, 6).

-- $usd spread over $elapsed_us microseconds, as USD per day (86,400,000,000 us), rounded down to the
-- micro-dollar; NULL when the time is not positive. Widened to DECIMAL(38, 6) first: a sum of
-- DECIMAL(18, 6) times a million overflows DECIMAL(18).
CREATE OR REPLACE MACRO usd_per_day(usd, elapsed_us) AS
  CASE WHEN elapsed_us > 0 THEN
    CAST(
      CAST((CAST(CAST(usd AS DECIMAL(38, 6)) * 1000000 AS HUGEINT) * 86400000000) // elapsed_us AS DECIMAL(38, 0))
        * 0.000001
      AS DECIMAL(38, 6))
  END;
COMMENT ON MACRO usd_per_day IS 'usd_per_day(usd, elapsed_us): usd spread over elapsed_us microseconds, USD per day rounded down to the micro-dollar in integer arithmetic; NULL when the time is not positive.';

-- The burn between consecutive snapshots, by the ledger's rule: spend takes the monthly credits
-- first, then the stable ones; the monthly credits are re-upped each month and do not carry over;
-- the stable ones never reset (CustomerBalance in the spec). Counts and monetary values are the
-- same value in two units, and both are kept. A pair across a monthly refresh (the monthly value
-- rose, or monthly_api_credits_refresh_at moved) is not counted: what was left before the refresh
-- expired rather than being spent, and the snapshots cannot tell the two apart. A pair across a
-- grant of stable credits (their value rose) is counted only while monthly credits are left at its
-- end: the stable ones were then not drawn on, so its spend is what the monthly ones lost, and the
-- grant is not burn. Nor is a pair counted that starts with nothing left: the value cannot fall
-- below zero, so its 0 consumed says nothing about the rate of spend.
CREATE OR REPLACE VIEW credit_burn AS
WITH ordered AS (
  SELECT
    run_id,
    taken_at,
    CAST(monthly_api_credits_remaining_monetary_value AS DECIMAL(38, 6)) AS monthly_usd,
    CAST(stable_api_credits_remaining_monetary_value AS DECIMAL(38, 6)) AS stable_usd,
    CAST(monthly_api_credits_remaining AS HUGEINT) AS monthly_credits,
    CAST(stable_api_credits_remaining AS HUGEINT) AS stable_credits,
    monthly_api_credits_refresh_at AS refresh_at,
    lag(taken_at) OVER w AS previous_taken_at,
    lag(CAST(monthly_api_credits_remaining_monetary_value AS DECIMAL(38, 6))) OVER w AS previous_monthly_usd,
    lag(CAST(stable_api_credits_remaining_monetary_value AS DECIMAL(38, 6))) OVER w AS previous_stable_usd,
    lag(CAST(monthly_api_credits_remaining AS HUGEINT)) OVER w AS previous_monthly_credits,
    lag(CAST(stable_api_credits_remaining AS HUGEINT)) OVER w AS previous_stable_credits,
    lag(monthly_api_credits_refresh_at) OVER w AS previous_refresh_at
  FROM balance_snapshots
  WINDOW w AS (ORDER BY taken_at, run_id)
),
pairs AS (
  SELECT
    *,
    epoch_us(taken_at) - epoch_us(previous_taken_at) AS elapsed_us,
    monthly_usd > previous_monthly_usd OR refresh_at IS DISTINCT FROM previous_refresh_at AS refreshed,
    stable_usd > previous_stable_usd AS granted
  FROM ordered
  WHERE previous_taken_at IS NOT NULL
),
judged AS (
  SELECT
    *,
    NOT refreshed
      AND (NOT granted OR monthly_usd > 0)
      AND previous_monthly_usd + previous_stable_usd > 0
      AND taken_at > previous_taken_at AS counted
  FROM pairs
)
SELECT
  run_id,
  previous_taken_at,
  taken_at,
  elapsed_us,
  (previous_monthly_usd + previous_stable_usd)::DECIMAL(38, 6) AS previous_remaining_usd,
  (monthly_usd + stable_usd)::DECIMAL(38, 6) AS remaining_usd,
  previous_monthly_credits + previous_stable_credits AS previous_remaining_credits,
  monthly_credits + stable_credits AS remaining_credits,
  refreshed,
  granted,
  counted,
  CASE WHEN counted THEN
    (previous_monthly_usd - monthly_usd + CASE WHEN granted THEN 0 ELSE previous_stable_usd - stable_usd END)
  END::DECIMAL(38, 6) AS consumed_usd,
  CASE WHEN counted THEN
    previous_monthly_credits - monthly_credits
      + CASE WHEN granted THEN 0 ELSE previous_stable_credits - stable_credits END
  END AS consumed_credits,
  CASE WHEN counted THEN
    usd_per_day(
      previous_monthly_usd - monthly_usd + CASE WHEN granted THEN 0 ELSE previous_stable_usd - stable_usd END,
      elapsed_us
    )
  END AS burn_usd_per_day
FROM judged
ORDER BY taken_at, run_id;
COMMENT ON VIEW credit_burn IS 'The credits consumed between consecutive balance snapshots by the ledger''s rule (monthly credits first, then stable; monthly re-upped each month without carry-over; stable never reset), in USD and in credits, and that per day; a monthly refresh or a grant is never burn.';
COMMENT ON COLUMN credit_burn.run_id IS 'The run of the later snapshot.';
COMMENT ON COLUMN credit_burn.previous_taken_at IS 'When the earlier snapshot was taken (UTC).';
COMMENT ON COLUMN credit_burn.taken_at IS 'When the later snapshot was taken (UTC).';
COMMENT ON COLUMN credit_burn.elapsed_us IS 'Microseconds between the two snapshots.';
COMMENT ON COLUMN credit_burn.previous_remaining_usd IS 'Monthly + stable credits'' monetary value at the earlier snapshot, USD DECIMAL(38,6).';
COMMENT ON COLUMN credit_burn.remaining_usd IS 'Monthly + stable credits'' monetary value at the later snapshot, USD DECIMAL(38,6).';
COMMENT ON COLUMN credit_burn.previous_remaining_credits IS 'Monthly + stable credits (counts) at the earlier snapshot.';
COMMENT ON COLUMN credit_burn.remaining_credits IS 'Monthly + stable credits (counts) at the later snapshot.';
COMMENT ON COLUMN credit_burn.refreshed IS 'The monthly credits were re-upped between the two: the monthly value rose or monthly_api_credits_refresh_at moved.';
COMMENT ON COLUMN credit_burn.granted IS 'Stable credits were granted between the two: their value rose.';
COMMENT ON COLUMN credit_burn.consumed_credits IS 'The same consumption in credits (counts), by the same rule; NULL when not counted.';
COMMENT ON COLUMN credit_burn.counted IS 'False when the pair spans a monthly refresh (what was left may have expired rather than been spent), a grant with no monthly credits left at its end (the stable ones may have paid too), or starts with nothing left (the value cannot go below 0): such a pair says nothing exact about spend.';
COMMENT ON COLUMN credit_burn.consumed_usd IS 'What the monthly credits lost, plus what the stable ones lost unless granted, exact, USD DECIMAL(38,6); NULL when not counted. A refresh or a grant is never in it.';
COMMENT ON COLUMN credit_burn.burn_usd_per_day IS 'consumed_usd per day of elapsed_us, USD DECIMAL(18,6) rounded down to the micro-dollar (integer arithmetic, no float); NULL when not counted.';

-- The runway at the latest snapshot, by the ledger's rule. The current burn is the counted
-- consumption of the snapshot pairs that end in the 30 days up to the latest snapshot, over their
-- time, once those pairs span half a day or more: pairs minutes apart measure which bills landed in
-- those minutes (billing lags the calls), not a rate, while a nightly run's pairs always qualify.
-- Without that (one snapshot, or runs minutes apart), the priced spend of the stored calls created
-- in those 30 days (from the first stored call, when the history is shorter), per day. At that rate
-- the spend takes the monthly credits left until they refresh (monthly_api_credits_refresh_at; one
-- already due refreshes at once), what is left of them then expires, and each month after starts
-- with the plan's monthly allowance (subscription_details.modeling_app.
-- monthly_pay_as_you_go_api_credits_monetary_value; 0 when the snapshot does not give it); the
-- stable credits pay whatever the monthly ones do not. The credits run out at the first instant
-- both are spent: from then on calls are billed. Without a refresh date the monthly credits never
-- expire. runs_out_at is NULL when the burn is 0 (or unknown), when the allowance covers a month's
-- burn before the stable credits are gone, or when it is more than 100 years away. Credits already
-- at zero have a runway of 0 whatever the burn: they ran out by the latest snapshot.
CREATE OR REPLACE VIEW credit_runway AS
WITH RECURSIVE latest AS (
  SELECT
    run_id,
    taken_at,
    CAST(monthly_api_credits_remaining_monetary_value AS DECIMAL(38, 6)) AS monthly_usd,
    CAST(stable_api_credits_remaining_monetary_value AS DECIMAL(38, 6)) AS stable_usd,
    monthly_api_credits_remaining AS monthly_credits,
    stable_api_credits_remaining AS stable_credits,
    monthly_api_credits_refresh_at AS refresh_at,
    TRY_CAST(
      json_extract_string(subscription_details, '$.modeling_app.monthly_pay_as_you_go_api_credits_monetary_value')
      AS DECIMAL(18, 6)
    ) AS monthly_allowance_usd
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
    (l.monthly_usd::DECIMAL(38, 6) + l.stable_usd::DECIMAL(38, 6)) AS remaining_usd,
    p.pairs AS burn_pairs,
    CASE WHEN p.pairs > 0 AND p.elapsed_us >= 43200000000 THEN usd_per_day(p.consumed_usd, p.elapsed_us) END
      AS snapshot_burn_usd_per_day,
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
-- The ledger played forward one refresh period at a time, in micro-dollars and microseconds
-- (integer arithmetic: no float). Period 0 runs from the snapshot to the refresh with the monthly
-- credits left; period k >= 1 starts k - 1 months after the refresh with the allowance. A period
-- whose spend exceeds its monthly credits and the stable ones left is the one the credits run out
-- in; at most 1,201 periods (100 years).
ledger(k, refresh_at, period_start, period_end, available, stable_left, burn, allowance, runs_out_us) AS (
  SELECT
    0,
    -- greatest() skips a NULL: without a refresh date, period 0 never ends.
    CASE WHEN refresh_at IS NOT NULL THEN greatest(refresh_at, taken_at) END,
    taken_at,
    CASE WHEN refresh_at IS NOT NULL THEN greatest(refresh_at, taken_at) END,
    CAST(CAST(monthly_usd AS DECIMAL(38, 6)) * 1000000 AS HUGEINT),
    CAST(CAST(stable_usd AS DECIMAL(38, 6)) * 1000000 AS HUGEINT),
    CAST(CAST(burn_usd_per_day AS DECIMAL(38, 6)) * 1000000 AS HUGEINT),
    CAST(CAST(coalesce(monthly_allowance_usd, 0) AS DECIMAL(38, 6)) * 1000000 AS HUGEINT),
    NULL::HUGEINT
  FROM runway
  WHERE burn_usd_per_day > 0 AND monthly_usd + stable_usd > 0
  UNION ALL
  SELECT
    k + 1,
    refresh_at,
    period_end,
    refresh_at + to_months(CAST(k + 1 AS INTEGER)),
    allowance,
    stable_left - greatest(0, (epoch_us(period_end) - epoch_us(period_start)) * burn // 86400000000 - available),
    burn,
    allowance,
    NULL::HUGEINT
  FROM ledger
  WHERE period_end IS NOT NULL
    AND k < 1200
    AND (epoch_us(period_end) - epoch_us(period_start)) * burn // 86400000000 < available + stable_left
),
run_out AS (
  SELECT min(
    epoch_us(period_start) + (available + stable_left) * 86400000000 // burn
  ) AS runs_out_us
  FROM ledger
  WHERE period_end IS NULL
    OR (epoch_us(period_end) - epoch_us(period_start)) * burn // 86400000000 >= available + stable_left
),
span AS (
  SELECT
    r.*,
    CASE
      WHEN r.remaining_usd <= 0 THEN 0
      WHEN o.runs_out_us IS NOT NULL THEN o.runs_out_us - epoch_us(r.taken_at)
    END AS runway_us
  FROM runway AS r, run_out AS o
)
SELECT
  run_id,
  taken_at,
  remaining_usd,
  monthly_usd,
  stable_usd,
  CAST(monthly_credits AS HUGEINT) + CAST(stable_credits AS HUGEINT) AS remaining_credits,
  monthly_credits,
  stable_credits,
  refresh_at AS monthly_refresh_at,
  monthly_allowance_usd,
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
COMMENT ON VIEW credit_runway IS 'When the credits run out at the current burn by the ledger''s rule: monthly credits are spent until their refresh and the rest expires, each month brings the plan''s allowance, stable credits pay the remainder; the burn from snapshot pairs of the last 30 days, else the priced spend of the last 30 days of calls.';
COMMENT ON COLUMN credit_runway.run_id IS 'The run of the latest snapshot.';
COMMENT ON COLUMN credit_runway.taken_at IS 'When the latest snapshot was taken (UTC).';
COMMENT ON COLUMN credit_runway.remaining_usd IS 'Monthly + stable credits'' monetary value at the latest snapshot, USD DECIMAL(38,6).';
COMMENT ON COLUMN credit_runway.monthly_usd IS 'The monthly credits'' monetary value at the latest snapshot, USD DECIMAL(18,6).';
COMMENT ON COLUMN credit_runway.stable_usd IS 'The stable credits'' monetary value at the latest snapshot, USD DECIMAL(18,6).';
COMMENT ON COLUMN credit_runway.remaining_credits IS 'Monthly + stable credits (counts) at the latest snapshot.';
COMMENT ON COLUMN credit_runway.monthly_credits IS 'API field monthly_api_credits_remaining at the latest snapshot (a count).';
COMMENT ON COLUMN credit_runway.stable_credits IS 'API field stable_api_credits_remaining at the latest snapshot (a count).';
COMMENT ON COLUMN credit_runway.monthly_refresh_at IS 'When the monthly credits next refresh, as the latest snapshot says (UTC).';
COMMENT ON COLUMN credit_runway.monthly_allowance_usd IS 'The plan''s monthly allowance (subscription_details.modeling_app.monthly_pay_as_you_go_api_credits_monetary_value) at the latest snapshot, USD DECIMAL(18,6); NULL when not given, and the runway then counts on none.';
COMMENT ON COLUMN credit_runway.burn_pairs IS 'Counted credit_burn pairs whose later snapshot is within the 30 days up to the latest one.';
COMMENT ON COLUMN credit_runway.snapshot_burn_usd_per_day IS 'The sum of those pairs'' consumed_usd over the sum of their elapsed time, per day, USD DECIMAL(38,6) rounded down; NULL without such a pair, or while they span less than half a day (runs minutes apart measure when bills landed, not a rate).';
COMMENT ON COLUMN credit_runway.spend_usd_per_day IS 'The priced spend (sum of api_calls.price_usd) of calls created in the 30 days up to the latest snapshot, per day of that window (from the first stored call when the history is shorter), USD DECIMAL(38,6) rounded down.';
COMMENT ON COLUMN credit_runway.burn_usd_per_day IS 'The current burn: snapshot_burn_usd_per_day when known, else spend_usd_per_day.';
COMMENT ON COLUMN credit_runway.burn_source IS 'Where burn_usd_per_day comes from: snapshots or api_calls.';
COMMENT ON COLUMN credit_runway.runway_days IS 'Days until the monthly and stable credits are both spent at burn_usd_per_day by the ledger''s rule, to a tenth; 0 when nothing is left; NULL when the burn is 0 or unknown, or the allowance keeps up with it.';
COMMENT ON COLUMN credit_runway.runs_out_at IS 'taken_at + the runway: the instant the credits run out at this rate and calls start being billed (UTC); taken_at when nothing is left (out by then); NULL when they do not run out within 100 years.';
COMMENT ON COLUMN credit_runway.runs_out_on IS 'The UTC day of runs_out_at.';

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
COMMENT ON VIEW monthly_credits IS 'Per UTC month: the credits consumed between balance snapshots taken within it, and the plan''s monthly allowance (subscription_details.modeling_app.monthly_pay_as_you_go_api_credits_monetary_value).';
COMMENT ON COLUMN monthly_credits.month IS 'The UTC month (its first day) of the snapshots.';
COMMENT ON COLUMN monthly_credits.credits_consumed_usd IS 'Sum of consumed_usd of the counted credit_burn pairs whose two snapshots are in the month, DECIMAL(38,6); NULL without one.';
COMMENT ON COLUMN monthly_credits.monthly_allowance_usd IS 'The plan''s monthly API credit allowance in USD at the month''s latest snapshot, exact from the JSON text; NULL when the snapshot has no subscription details.';
