-- What the last full application of the schema left (src/load/schemaState.ts): the key of the
-- schema it applied and a digest of the catalog it produced. An open whose key and catalog still
-- match both skips the schema: nothing, not even another version, has changed it since.
CREATE TABLE IF NOT EXISTS internal.schema_state (
  schema_key      VARCHAR NOT NULL,
  catalog_digest  VARCHAR NOT NULL,
  applied_at      TIMESTAMPTZ NOT NULL
);
COMMENT ON TABLE internal.schema_state IS 'The schema the last open applied in full and the catalog it left, so that an open finding both unchanged skips the schema (one row).';
COMMENT ON COLUMN internal.schema_state.schema_key IS 'SHA-256 of the schema files and of the rules that apply them, as that version of zoo-usage had them.';
COMMENT ON COLUMN internal.schema_state.catalog_digest IS 'SHA-256 of every schema, table, view, column, macro and comment of the database just after that application.';
COMMENT ON COLUMN internal.schema_state.applied_at IS 'When that application was committed (UTC).';
