-- UTC days whose calls changed since their billing classes and usage grains were stored
-- (api_calls.billing_class, usage_grains). Set in the calls' transaction, cleared when they are
-- stored again: a crash in between leaves them marked for the next run. A day, not a month: a
-- nightly run changes the lookback window's few days, and classifies only those.
-- No key: an index's blocks are not given back as its rows come and go each night, so the file
-- would grow a little every night; a day is inserted only when it is not there already.
CREATE TABLE IF NOT EXISTS internal.stale_class_days (
  day DATE NOT NULL
);
COMMENT ON TABLE internal.stale_class_days IS 'Exporter bookkeeping: UTC days whose calls changed since their billing classes and usage grains were stored; cleared once they are stored again.';
COMMENT ON COLUMN internal.stale_class_days.day IS 'The UTC day of created_at.';
