-- Months whose calls changed since their billing classes were stored (api_calls.billing_class).
-- Set in the calls' transaction, cleared when the classes are stored again: a crash in between
-- leaves them marked for the next run.
-- No key: an index's blocks are not given back as its rows come and go each night, so the file
-- would grow a little every night; a month is inserted only when it is not there already.
CREATE TABLE IF NOT EXISTS internal.stale_class_months (
  month DATE NOT NULL
);
COMMENT ON TABLE internal.stale_class_months IS 'Exporter bookkeeping: UTC months whose calls changed since their billing classes were stored; cleared once they are classified again.';
COMMENT ON COLUMN internal.stale_class_months.month IS 'The UTC month (its first day) of created_at.';
