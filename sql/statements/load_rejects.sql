-- Rejected records of one batch, from their NDJSON spool file (its name filled in as a quoted literal).
-- raw_json is cut to MAX_REJECT_RAW_CHARS (src/transform/limits.ts), so a line stays far below
-- maximum_object_size.
INSERT INTO rejects (run_id, rejected_at, record_id, reason, raw_json)
SELECT run_id, rejected_at, record_id, reason, raw_json
FROM read_json({{file}},
  format = 'newline_delimited',
  columns = {
    run_id: 'VARCHAR', rejected_at: 'TIMESTAMPTZ', record_id: 'VARCHAR', reason: 'VARCHAR', raw_json: 'VARCHAR'
  },
  maximum_object_size = 33554432);
