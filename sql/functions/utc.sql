-- utc_day(ts) and utc_month(ts): an instant's UTC day, and its UTC month as the DATE of its first
-- day. make_timestamp(epoch_us(ts)) is the instant as UTC wall time without the time-zone calendar:
-- the same day as CAST(timezone('UTC', ts) AS DATE), without its cost per row.
CREATE OR REPLACE MACRO utc_day(ts) AS CAST(make_timestamp(epoch_us(ts)) AS DATE);
CREATE OR REPLACE MACRO utc_month(ts) AS CAST(date_trunc('month', make_timestamp(epoch_us(ts))) AS DATE);
COMMENT ON MACRO utc_day IS 'utc_day(ts): the UTC day of an instant (a TIMESTAMPTZ), whatever the session time zone.';
COMMENT ON MACRO utc_month IS 'utc_month(ts): the UTC month of an instant, as the DATE of its first day (2026-10-01).';
