-- Rejects of the account sources, a batch at a time: $1 is a JSON array of RejectRow objects
-- (storableReject: texts cleaned and cut, so every one loads). One statement for the batch: a
-- statement per row would hold a buffer per row until the commit.
INSERT INTO rejects (run_id, rejected_at, record_id, reason, raw_json)
SELECT r.run_id, CAST(r.rejected_at AS TIMESTAMPTZ), r.record_id, r.reason, r.raw_json
FROM (
  SELECT unnest(json_transform_strict($1,
    '[{"run_id":"VARCHAR","rejected_at":"VARCHAR","record_id":"VARCHAR","reason":"VARCHAR","raw_json":"VARCHAR"}]'
  )) AS r
);
