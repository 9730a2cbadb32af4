-- Which warehouse this is: a random id made when the database is created (or first opened by a
-- version that has this table). The Parquet dataset under --out records the id of the warehouse
-- that writes it (_zoo_usage_owner.json), so that two databases never write into one dataset.
CREATE TABLE IF NOT EXISTS warehouse_identity (
  warehouse_id VARCHAR NOT NULL,
  created_at   TIMESTAMPTZ NOT NULL
);

INSERT INTO warehouse_identity (warehouse_id, created_at)
SELECT gen_random_uuid()::VARCHAR, now()
WHERE NOT EXISTS (SELECT 1 FROM warehouse_identity);

-- Whose data the warehouse holds: its scope ('user' or 'org') and owner (the user id or the org
-- id), set by the first export and checked by every later one. NULL in a warehouse made before
-- scopes existed: those hold one user's calls (user scope, owner in export_state.user_id).
ALTER TABLE warehouse_identity ADD COLUMN IF NOT EXISTS scope VARCHAR;
ALTER TABLE warehouse_identity ADD COLUMN IF NOT EXISTS owner_id VARCHAR;
