-- Which warehouse this is: a random id made when the database is created (or first opened by a
-- version that has internal.warehouse_identity). Applied after an older database's rows are moved
-- into the internal schema, so that its id is kept, not replaced.
INSERT INTO internal.warehouse_identity (warehouse_id, created_at)
SELECT gen_random_uuid()::VARCHAR, now()
WHERE NOT EXISTS (SELECT 1 FROM internal.warehouse_identity);

-- Whose data the warehouse holds: its scope ('user' or 'org') and owner (the user id or the org
-- id), set by the first export and checked by every later one. NULL in a warehouse made before
-- scopes existed: those hold one user's calls (user scope, owner in export_state.user_id).
ALTER TABLE internal.warehouse_identity ADD COLUMN IF NOT EXISTS scope VARCHAR;
ALTER TABLE internal.warehouse_identity ADD COLUMN IF NOT EXISTS owner_id VARCHAR;
