-- Keep only the newest version (by updated_at) of each id in the staged batch. A window over the
-- whole batch is a large share of the load, so the loader runs this only when an id repeats.
CREATE OR REPLACE TEMP TABLE staged_api_calls AS
SELECT *
FROM staged_api_calls
QUALIFY row_number() OVER (PARTITION BY id ORDER BY updated_at DESC) = 1;
