-- A digest of everything the schema steps make in this database: schemas, tables, views, macros,
-- indexes and sequences with their definitions, every column with its type, and every comment.
-- Two databases with the same digest have the same catalog. The attached name is left out (the
-- definitions do not carry it), so a copy of the file has its original's digest.
WITH entries(entry) AS (
  SELECT 'schema ' || schema_name || ' ' || coalesce(comment, '')
  FROM duckdb_schemas() WHERE database_name = current_database() AND NOT internal
  UNION ALL
  SELECT 'table ' || schema_name || '.' || table_name || ' ' || sql || ' ' || coalesce(comment, '')
  FROM duckdb_tables() WHERE database_name = current_database() AND NOT internal
  UNION ALL
  SELECT 'view ' || schema_name || '.' || view_name || ' ' || sql || ' ' || coalesce(comment, '')
  FROM duckdb_views() WHERE database_name = current_database() AND NOT internal
  UNION ALL
  SELECT 'column ' || schema_name || '.' || table_name || '.' || column_name || ' ' || column_index || ' '
    || data_type || ' ' || coalesce(column_default, '') || ' ' || is_nullable || ' ' || coalesce(comment, '')
  FROM duckdb_columns() WHERE database_name = current_database() AND NOT internal
  UNION ALL
  SELECT 'function ' || schema_name || '.' || function_name || ' ' || function_type || ' '
    || coalesce(parameters::VARCHAR, '') || ' ' || coalesce(macro_definition, '') || ' ' || coalesce(comment, '')
  FROM duckdb_functions() WHERE database_name = current_database() AND NOT internal
  UNION ALL
  SELECT 'index ' || schema_name || '.' || index_name || ' ' || coalesce(sql, '') || ' ' || coalesce(comment, '')
  FROM duckdb_indexes() WHERE database_name = current_database()
  UNION ALL
  SELECT 'sequence ' || schema_name || '.' || sequence_name || ' ' || coalesce(sql, '') || ' ' || coalesce(comment, '')
  FROM duckdb_sequences() WHERE database_name = current_database()
)
SELECT sha256(string_agg(entry, chr(10) ORDER BY entry)) AS digest, count(*) AS entries FROM entries;
