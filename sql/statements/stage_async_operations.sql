-- Stage one batch of fetched operations from an NDJSON spool file (its name filled in as a quoted
-- literal by fillSql), typed by DuckDB, joined to the calls that started them for the partition key.
-- The calls were created between the two bounds below (quoted TIMESTAMPTZ literals, '-infinity'
-- and 'infinity' when not known): the bounds let the scan of api_calls skip the row groups outside
-- them, which is most of a large table, instead of reading every id for every batch.
-- maximum_object_size is twice the largest row the validator lets through (src/transform/limits.ts).
CREATE OR REPLACE TEMP TABLE staged_async_operations AS
SELECT s.*, c.created_at AS call_created_at
FROM read_json({{file}},
  format = 'newline_delimited',
  columns = {
    id: 'UUID', fetch_status: 'VARCHAR', operation_type: 'VARCHAR', status: 'VARCHAR', user_id: 'UUID',
    created_at: 'TIMESTAMPTZ', started_at: 'TIMESTAMPTZ', completed_at: 'TIMESTAMPTZ', updated_at: 'TIMESTAMPTZ',
    error: 'VARCHAR', src_format: 'VARCHAR', output_format: 'VARCHAR', output_unit: 'VARCHAR',
    result_value: 'DOUBLE', center_of_mass_x: 'DOUBLE', center_of_mass_y: 'DOUBLE', center_of_mass_z: 'DOUBLE',
    material_density: 'DOUBLE', material_density_unit: 'VARCHAR', material_mass: 'DOUBLE',
    material_mass_unit: 'VARCHAR', model: 'VARCHAR', model_version: 'VARCHAR', kcl_version: 'VARCHAR',
    feedback: 'VARCHAR', prompt: 'VARCHAR', conversation_id: 'UUID', project_name: 'VARCHAR',
    output_count: 'INTEGER', output_bytes: 'BIGINT', outputs: 'JSON', details: 'JSON', raw_unknown: 'JSON',
    fetched_at: 'TIMESTAMPTZ'
  },
  maximum_object_size = 33554432) AS s
JOIN api_calls AS c
  ON c.id = s.id
  AND c.created_at BETWEEN {{calls_from}}::TIMESTAMPTZ AND {{calls_to}}::TIMESTAMPTZ;

-- The staged operations that change the table: new, or a new status, fetch status or updated_at.
-- A re-fetched operation still running with nothing new changes nothing (and rewrites no partition).
-- A rejected body only marks an operation not stored yet: a stored one keeps what it had.
CREATE OR REPLACE TEMP TABLE changed_async_operations AS
SELECT s.*
FROM staged_async_operations AS s
LEFT JOIN async_operations AS o USING (id)
WHERE (o.id IS NULL
    OR o.fetch_status IS DISTINCT FROM s.fetch_status
    OR o.status IS DISTINCT FROM s.status
    OR o.updated_at IS DISTINCT FROM s.updated_at)
  AND (o.id IS NULL OR s.fetch_status <> 'rejected');
