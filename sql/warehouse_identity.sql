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
