-- Which warehouse this is: a random id made when the database is created (or first opened by a
-- version that has this table). The Parquet dataset under --out records the id of the warehouse
-- that writes it (_zoo_usage_owner.json), so that two databases never write into one dataset.
CREATE TABLE IF NOT EXISTS internal.warehouse_identity (
  warehouse_id VARCHAR NOT NULL,
  created_at   TIMESTAMPTZ NOT NULL
);
-- Whose data the warehouse holds: its scope ('user' or 'org') and owner (the user id or the org
-- id), set by the first export and checked by every later one. NULL in a warehouse made before
-- scopes existed: those hold one user's calls (user scope, owner in export_state.user_id).
ALTER TABLE internal.warehouse_identity ADD COLUMN IF NOT EXISTS scope VARCHAR;
ALTER TABLE internal.warehouse_identity ADD COLUMN IF NOT EXISTS owner_id VARCHAR;
COMMENT ON TABLE internal.warehouse_identity IS 'Exporter bookkeeping: which warehouse this is; the Parquet dataset records the id of the warehouse that writes it (_zoo_usage_owner.json).';
COMMENT ON COLUMN internal.warehouse_identity.warehouse_id IS 'A random UUID made when the database was created.';
COMMENT ON COLUMN internal.warehouse_identity.created_at IS 'When the id was made (UTC).';
COMMENT ON COLUMN internal.warehouse_identity.scope IS 'Whose calls the warehouse holds: user (the token''s own, GET /user/api-calls) or org (every member''s, GET /org/api-calls); NULL in a warehouse made before scopes, which is user scope. Set by the first export; a run of the other scope is refused.';
COMMENT ON COLUMN internal.warehouse_identity.owner_id IS 'The owner of the data: the user id in user scope (as internal.export_state.user_id), the org id (GET /org) in org scope. A run for another owner is refused.';
