-- Whose data a warehouse holds (src/load/warehouseScope.ts): its recorded scope and owner, the user
-- of export_state, whether it holds calls (a warehouse made before scopes existed is a user-scope
-- one if it does), and whether it holds any exported data at all, so that a refusal names the
-- owner of data only when there is some. One row at most from each table, in one UNION ALL: seven
-- EXISTS subqueries took DuckDB ~17 ms to plan on every export's start, this takes ~2.
SELECT
  i.scope,
  i.owner_id,
  (SELECT user_id::VARCHAR FROM internal.export_state LIMIT 1) AS state_user,
  coalesce(bool_or(held.source = 'api_calls'), false) AS has_calls,
  count(held.source) > 0 AS holds_data
FROM internal.warehouse_identity AS i
LEFT JOIN (
  (SELECT 'api_calls' AS source FROM api_calls LIMIT 1)
  UNION ALL (SELECT 'async_operations' FROM async_operations LIMIT 1)
  UNION ALL (SELECT 'invoices' FROM invoices LIMIT 1)
  UNION ALL (SELECT 'balance_snapshots' FROM balance_snapshots LIMIT 1)
  UNION ALL (SELECT 'api_tokens' FROM api_tokens LIMIT 1)
  UNION ALL (SELECT 'service_accounts' FROM service_accounts LIMIT 1)
  UNION ALL (SELECT 'org_members' FROM org_members LIMIT 1)
) AS held ON true
GROUP BY i.scope, i.owner_id
LIMIT 1;
