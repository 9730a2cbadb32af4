-- The token ladder: the next_page token of scanned pages, keyed by the created_at of the page's last
-- item. The API has no `since` filter; a nightly run restarts from the highest rung before its
-- lookback window instead of from the beginning.
CREATE TABLE IF NOT EXISTS internal.page_ladder (
  last_created_at TIMESTAMPTZ NOT NULL,
  token           VARCHAR NOT NULL,
  run_id          VARCHAR NOT NULL
);
COMMENT ON TABLE internal.page_ladder IS 'Exporter bookkeeping: sealed page tokens of scanned pages, so a nightly run restarts before its lookback window instead of from the beginning.';
COMMENT ON COLUMN internal.page_ladder.last_created_at IS 'The created_at of the last call on the page the token follows (UTC).';
COMMENT ON COLUMN internal.page_ladder.token IS 'The next_page token of that page, sealed with AES-256-GCM under the export''s secret key.';
COMMENT ON COLUMN internal.page_ladder.run_id IS 'The run that read the page.';
