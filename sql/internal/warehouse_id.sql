-- Which warehouse this is: a random id made when the database is created (or first opened by a
-- version that has internal.warehouse_identity). Applied after an older database's rows are moved
-- into the internal schema, so that its id is kept, not replaced.
INSERT INTO internal.warehouse_identity (warehouse_id, created_at)
SELECT gen_random_uuid()::VARCHAR, now()
WHERE NOT EXISTS (SELECT 1 FROM internal.warehouse_identity);
