-- Notes that the calls of $ids were asked at $asked_at; $not_found_ids are the ones the API answered
-- 404 for.
INSERT INTO internal.pending_rereads (id, last_asked_at, asks, not_found)
SELECT id, $asked_at::TIMESTAMPTZ, 1, list_contains($not_found_ids::UUID[], id)
FROM (SELECT unnest($ids::UUID[]) AS id)
ON CONFLICT (id) DO UPDATE SET
  last_asked_at = excluded.last_asked_at,
  asks = pending_rereads.asks + 1,
  not_found = excluded.not_found;
