-- The x-api-call-id of every response the exporter received, per run: the API lists each request
-- it serves as a call of the token's user, and these ids mark the exporter's own calls when they
-- come back in a later listing (api_calls_enriched.is_own_call). No key: a retried run may repeat
-- an id, and the views only ask whether an id is present.
CREATE TABLE IF NOT EXISTS internal.own_calls (
  id     UUID NOT NULL,
  run_id VARCHAR NOT NULL
);
COMMENT ON TABLE internal.own_calls IS 'Exporter bookkeeping: the x-api-call-id of every response an export received, per run; marks the exporter''s own calls (is_own_call) when they come back in the listing.';
COMMENT ON COLUMN internal.own_calls.id IS 'The x-api-call-id response header: the id of that request as an API call (api_calls.id).';
COMMENT ON COLUMN internal.own_calls.run_id IS 'The run that made the request.';
