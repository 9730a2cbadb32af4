-- Records the exports could not load, rejected during the period (the UTC day of rejected_at; a
-- reject has no trustworthy created_at), with the most frequent reasons. Always one row at least:
-- the totals, repeated on each reason row (reason is NULL when there is none).
-- $from / $to: UTC days, both included; NULL leaves that end open. $top: how many reasons.
WITH period AS (
  SELECT reason, rejected_at
  FROM rejects
  WHERE ($from::DATE IS NULL OR CAST(make_timestamp(epoch_us(rejected_at)) AS DATE) >= $from::DATE)
    AND ($to::DATE IS NULL OR CAST(make_timestamp(epoch_us(rejected_at)) AS DATE) <= $to::DATE)
),
totals AS (
  SELECT count(*)::BIGINT AS records, max(rejected_at) AS latest_rejected_at FROM period
),
reasons AS (
  SELECT reason, count(*)::BIGINT AS reason_records
  FROM period
  GROUP BY reason
  ORDER BY reason_records DESC, reason
  LIMIT $top
)
SELECT
  totals.records,
  strftime(timezone('UTC', totals.latest_rejected_at), '%Y-%m-%dT%H:%M:%S.%fZ') AS latest_rejected_at,
  reasons.reason,
  reasons.reason_records
FROM totals
LEFT JOIN reasons ON true
ORDER BY reasons.reason_records DESC, reasons.reason;
