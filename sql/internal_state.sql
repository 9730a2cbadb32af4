-- The exporter's own bookkeeping, apart from the data in main: BI users can ignore this schema.
-- Applied on every open after schema.sql; every statement is idempotent. A database made before
-- this schema had these tables in main: the open moves their rows here (src/load/internalSchema.ts).
CREATE SCHEMA IF NOT EXISTS internal;

-- The checkpoint: one row. Committed in the same transaction as the rows it covers.
-- Page tokens are sealed (AES-256-GCM with the export's secret key), never stored in the clear.
CREATE TABLE IF NOT EXISTS internal.export_state (
  singleton          BOOLEAN PRIMARY KEY DEFAULT true CHECK (singleton),
  user_id            UUID,
  -- Where an interrupted scan continues; NULL once a scan has reached the end.
  resume_token       VARCHAR,
  resume_run_id      VARCHAR,
  high_water_created TIMESTAMPTZ,
  last_complete_scan TIMESTAMPTZ,
  -- Settings the stored data depends on: duration_ms is derived with this unit, and the Parquet
  -- dataset is laid out by this partitioning.
  duration_unit      VARCHAR,
  partitioning       VARCHAR
);

-- The token ladder: the next_page token of scanned pages, keyed by the created_at of the page's last
-- item. The API has no `since` filter; a nightly run restarts from the highest rung before its
-- lookback window instead of from the beginning.
CREATE TABLE IF NOT EXISTS internal.page_ladder (
  last_created_at TIMESTAMPTZ NOT NULL,
  token           VARCHAR NOT NULL,
  run_id          VARCHAR NOT NULL
);

-- Parquet partitions whose rows changed and are not yet rewritten. Set in the data's transaction,
-- cleared after the partition file is swapped in: a crash in between is repaired by the next run.
CREATE TABLE IF NOT EXISTS internal.parquet_dirty (
  dataset   VARCHAR NOT NULL,
  partition VARCHAR NOT NULL,
  PRIMARY KEY (dataset, partition)
);

-- The x-api-call-id of every response the exporter received, per run: the API lists each request
-- it serves as a call of the token's user, and these ids mark the exporter's own calls when they
-- come back in a later listing (api_calls_enriched.is_own_call). No key: a retried run may repeat
-- an id, and the views only ask whether an id is present.
CREATE TABLE IF NOT EXISTS internal.own_calls (
  id     UUID NOT NULL,
  run_id VARCHAR NOT NULL
);

-- Stored calls still pending billing that runs re-read one by one (GET /user/api-calls/{id})
-- because they are older than the lookback window: when each was last asked and how often, so that
-- a call waits longer after each ask (select_pending_rereads.sql) and the per-run cap rotates
-- through the due ones instead of asking the same oldest ones every night, and whether the API
-- answered 404 (then the row is kept as stored and not asked again).
CREATE TABLE IF NOT EXISTS internal.pending_rereads (
  id            UUID PRIMARY KEY,
  last_asked_at TIMESTAMPTZ NOT NULL,
  asks          INTEGER NOT NULL,
  not_found     BOOLEAN NOT NULL
);

-- Which warehouse this is: a random id made when the database is created (or first opened by a
-- version that has this table). The Parquet dataset under --out records the id of the warehouse
-- that writes it (_zoo_usage_owner.json), so that two databases never write into one dataset.
CREATE TABLE IF NOT EXISTS internal.warehouse_identity (
  warehouse_id VARCHAR NOT NULL,
  created_at   TIMESTAMPTZ NOT NULL
);
