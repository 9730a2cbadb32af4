-- Async operations (the long-running CAD jobs), one per API call that started one; the id is the
-- call's id (spec: "the same as the API call ID"). Scalar fields of each variant are columns, the
-- rest is in `details` JSON. Output files (base64 CAD data) are never stored: only their names and
-- sizes. `fetch_status` is 'found', 'not_found' (a 404: recorded, never retried) or 'rejected' (a body
-- that could not be stored, in `rejects` with the reason: recorded, never retried).
CREATE TABLE IF NOT EXISTS async_operations (
  id                    UUID PRIMARY KEY,
  call_created_at       TIMESTAMPTZ NOT NULL,
  fetch_status          VARCHAR NOT NULL,
  operation_type        VARCHAR,
  status                VARCHAR,
  user_id               UUID,
  created_at            TIMESTAMPTZ,
  started_at            TIMESTAMPTZ,
  completed_at          TIMESTAMPTZ,
  updated_at            TIMESTAMPTZ,
  queue_ms              DOUBLE,
  run_ms                DOUBLE,
  error                 VARCHAR,
  src_format            VARCHAR,
  output_format         VARCHAR,
  output_unit           VARCHAR,
  result_value          DOUBLE,
  center_of_mass_x      DOUBLE,
  center_of_mass_y      DOUBLE,
  center_of_mass_z      DOUBLE,
  material_density      DOUBLE,
  material_density_unit VARCHAR,
  material_mass         DOUBLE,
  material_mass_unit    VARCHAR,
  model                 VARCHAR,
  model_version         VARCHAR,
  kcl_version           VARCHAR,
  feedback              VARCHAR,
  prompt                VARCHAR,
  conversation_id       UUID,
  project_name          VARCHAR,
  output_count          INTEGER,
  output_bytes          BIGINT,
  -- [{"name": ..., "bytes": ...}] for each output file.
  outputs               JSON,
  -- Non-scalar variant fields (format options, source ranges, code) and unknown fields.
  details               JSON,
  -- The whole body of an operation whose type this version does not know (outputs replaced by sizes).
  raw_unknown           JSON,
  fetched_at            TIMESTAMPTZ NOT NULL,
  fetch_run_id          VARCHAR NOT NULL
);
COMMENT ON TABLE async_operations IS 'Async operations (long-running CAD jobs, GET /async/operations/{id}), one per API call that started one; output files are never stored, only their names and sizes.';
COMMENT ON COLUMN async_operations.id IS 'API: id. The operation''s id, the same as the id of the API call that started it (api_calls.id).';
COMMENT ON COLUMN async_operations.call_created_at IS 'Derived: created_at of the API call that started the operation (UTC); the Parquet dataset is partitioned by it.';
COMMENT ON COLUMN async_operations.fetch_status IS 'Exporter bookkeeping: found; not_found (the API answered 404, not asked again); or rejected (the body is in rejects, not asked again).';
COMMENT ON COLUMN async_operations.operation_type IS 'API: type. The kind of job: file_conversion, file_mass, text_to_cad, ... (unknown types are kept, see raw_unknown).';
COMMENT ON COLUMN async_operations.status IS 'API: status. queued, uploaded, in_progress, completed or failed.';
COMMENT ON COLUMN async_operations.user_id IS 'API: user_id. The user who created the operation.';
COMMENT ON COLUMN async_operations.created_at IS 'API: created_at. When the operation was created (UTC).';
COMMENT ON COLUMN async_operations.started_at IS 'API: started_at. When the operation started running (UTC).';
COMMENT ON COLUMN async_operations.completed_at IS 'API: completed_at. When the operation completed (UTC).';
COMMENT ON COLUMN async_operations.updated_at IS 'API: updated_at. When the operation was last updated (UTC).';
COMMENT ON COLUMN async_operations.queue_ms IS 'Derived: started_at - created_at in milliseconds, the time the job waited in the queue.';
COMMENT ON COLUMN async_operations.run_ms IS 'Derived: completed_at - started_at in milliseconds, the time the job ran.';
COMMENT ON COLUMN async_operations.error IS 'API: error. The error the job returned, if any.';
COMMENT ON COLUMN async_operations.src_format IS 'API: src_format. The format of the source file.';
COMMENT ON COLUMN async_operations.output_format IS 'API: output_format. The format of the output (file conversion, text-to-CAD).';
COMMENT ON COLUMN async_operations.output_unit IS 'API: output_unit. The unit of result_value or of the center of mass.';
COMMENT ON COLUMN async_operations.result_value IS 'API: mass, volume, density or surface_area, whichever the operation_type returns, in output_unit.';
COMMENT ON COLUMN async_operations.center_of_mass_x IS 'API: center_of_mass.x (file_center_of_mass), in output_unit.';
COMMENT ON COLUMN async_operations.center_of_mass_y IS 'API: center_of_mass.y (file_center_of_mass), in output_unit.';
COMMENT ON COLUMN async_operations.center_of_mass_z IS 'API: center_of_mass.z (file_center_of_mass), in output_unit.';
COMMENT ON COLUMN async_operations.material_density IS 'API: material_density. The material density the user gave (file_mass), in material_density_unit.';
COMMENT ON COLUMN async_operations.material_density_unit IS 'API: material_density_unit. The unit of material_density.';
COMMENT ON COLUMN async_operations.material_mass IS 'API: material_mass. The material mass the user gave (file_density), in material_mass_unit.';
COMMENT ON COLUMN async_operations.material_mass_unit IS 'API: material_mass_unit. The unit of material_mass.';
COMMENT ON COLUMN async_operations.model IS 'API: model. The model used (text-to-CAD).';
COMMENT ON COLUMN async_operations.model_version IS 'API: model_version. The version of the model (text-to-CAD).';
COMMENT ON COLUMN async_operations.kcl_version IS 'API: kcl_version. The version of KCL requested (text-to-CAD).';
COMMENT ON COLUMN async_operations.feedback IS 'API: feedback. Feedback from the user, if any (text-to-CAD).';
COMMENT ON COLUMN async_operations.prompt IS 'API: prompt. The prompt (text-to-CAD).';
COMMENT ON COLUMN async_operations.conversation_id IS 'API: conversation_id. Groups the prompts of one conversation (text-to-CAD).';
COMMENT ON COLUMN async_operations.project_name IS 'API: project_name. The project the prompt belongs to (text-to-CAD multi-file iteration).';
COMMENT ON COLUMN async_operations.output_count IS 'Derived: the number of output files.';
COMMENT ON COLUMN async_operations.output_bytes IS 'Derived: the total size of the output files in bytes, as sent (base64 text; plain text for the multi-file iteration).';
COMMENT ON COLUMN async_operations.outputs IS 'Derived from API outputs: [{"name": ..., "bytes": ...}] for each output file; the contents are never stored.';
COMMENT ON COLUMN async_operations.details IS 'API fields without a column of their own (format options, source ranges, code, fields this version does not know), as a JSON object.';
COMMENT ON COLUMN async_operations.raw_unknown IS 'The whole body of an operation whose type this version does not know (outputs replaced by their sizes), as JSON; NULL for known types.';
COMMENT ON COLUMN async_operations.fetched_at IS 'Exporter bookkeeping: when the exporter fetched the operation (UTC).';
COMMENT ON COLUMN async_operations.fetch_run_id IS 'Exporter bookkeeping: the run (runs.run_id) that last fetched it.';
