-- Whose data a warehouse holds (src/load/warehouseScope.ts): its recorded scope and owner, the user
-- of export_state, whether it holds calls (a warehouse made before scopes existed is a user-scope
-- one if it does), and whether it holds any exported data at all, so that a refusal names the
-- owner of data only when there is some.
SELECT
  i.scope,
  i.owner_id,
  (SELECT user_id::VARCHAR FROM internal.export_state LIMIT 1) AS state_user,
  EXISTS (SELECT 1 FROM api_calls) AS has_calls,
  EXISTS (SELECT 1 FROM api_calls)
    OR EXISTS (SELECT 1 FROM async_operations)
    OR EXISTS (SELECT 1 FROM invoices)
    OR EXISTS (SELECT 1 FROM balance_snapshots)
    OR EXISTS (SELECT 1 FROM api_tokens)
    OR EXISTS (SELECT 1 FROM service_accounts)
    OR EXISTS (SELECT 1 FROM org_members) AS holds_data
FROM internal.warehouse_identity AS i
LIMIT 1;
