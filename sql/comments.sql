-- What every table, view and column means, for BI tools and `duckdb_columns()`. Applied on every
-- open after the schema and the views (CREATE OR REPLACE VIEW drops a view's comments). Times are
-- TIMESTAMPTZ instants shown in UTC; money is USD as DECIMAL(18,6), exact to the micro-dollar.
-- "API:" names the field of ApiCallWithPrice or AsyncApiCallOutput (spec/zoo-openapi.json) a column
-- holds. A view column not commented here takes the comment of the same column of the table or view
-- it selects from (warehouseComments.ts).

COMMENT ON TABLE api_calls IS 'One row per API call of the token''s user (GET /user/api-calls), the newest version of each (highest updated_at). See docs/warehouse.md.';
COMMENT ON COLUMN api_calls.id IS 'API: id. The unique identifier of the API call; also the id of the async operation it started, if any.';
COMMENT ON COLUMN api_calls.user_id IS 'API: user_id. The ID of the user that made the API call (the token''s user).';
COMMENT ON COLUMN api_calls.org_id IS 'API: org_id. The organization the call is billable through, if any; NULL otherwise.';
COMMENT ON COLUMN api_calls.method IS 'API: method. The HTTP method requested (GET, POST, ...).';
COMMENT ON COLUMN api_calls.endpoint IS 'API: endpoint. The concrete path requested, ids included (/file/conversion/step/obj).';
COMMENT ON COLUMN api_calls.endpoint_template IS 'Derived from endpoint: the route template of the spec it matches (/file/conversion/{src_format}/{output_format}); unmatched paths get {id} for uuids and {n} for numbers. Group cost by this.';
COMMENT ON COLUMN api_calls.status_code IS 'API: status_code. The HTTP status code the API returned to the call; NULL if not recorded.';
COMMENT ON COLUMN api_calls.created_at IS 'API: created_at. When the API call was created (UTC). Days and months of the views and the Parquet partitions are cut from this.';
COMMENT ON COLUMN api_calls.started_at IS 'API: started_at. When the call started billing (UTC); NULL if it has not.';
COMMENT ON COLUMN api_calls.completed_at IS 'API: completed_at. When the call completed billing (UTC); NULL while billing is pending, and its price may still change.';
COMMENT ON COLUMN api_calls.updated_at IS 'API: updated_at. When the API last updated the call (UTC); moves when billing completes. The loader keeps the version with the highest.';
COMMENT ON COLUMN api_calls.duration_raw IS 'API: duration, as sent (int64). The spec gives no unit; duration_ms converts it with --duration-unit. See docs/duration.md.';
COMMENT ON COLUMN api_calls.duration_ms IS 'Derived: duration_raw in milliseconds, converted with the unit stored in internal.export_state.duration_unit (default ns). See docs/duration.md.';
COMMENT ON COLUMN api_calls.minutes IS 'API: minutes. The number of minutes the call was billed for; NULL until billed or when not billed by time.';
COMMENT ON COLUMN api_calls.seconds IS 'API: seconds. The number of seconds the call was billed for; NULL until billed or when not billed by time.';
COMMENT ON COLUMN api_calls.price_usd IS 'API: price. The price of the call in USD, exact DECIMAL(18,6); a price with more than 6 decimals is rounded half-even (see price_raw). Negative for a refund or credit. NULL when the API gave none. See docs/money.md.';
COMMENT ON COLUMN api_calls.token_hash IS 'API: token (the UUID of the API token that made the call), as HMAC-SHA256 under the export''s secret key: stable across runs, not reversible. NULL with --token-column drop.';
COMMENT ON COLUMN api_calls.email IS 'API: email. The user''s email address: kept, hashed (HMAC-SHA256) or NULL per --email-column. Personal data.';
COMMENT ON COLUMN api_calls.ip_address IS 'API: ip_address. The IP address the call came from: kept, hashed (HMAC-SHA256) or NULL per --ip-address-column. Personal data.';
COMMENT ON COLUMN api_calls.origin IS 'API: origin. The origin of the API call, as the API reports it (the spec says no more).';
COMMENT ON COLUMN api_calls.user_agent IS 'API: user_agent. The User-Agent of the request; zoo-usage/... marks the exporter''s own calls.';
COMMENT ON COLUMN api_calls.request_query_params IS 'API: request_query_params. The query string sent with the request.';
COMMENT ON COLUMN api_calls.stripe_invoice_item_id IS 'API: stripe_invoice_item_id. The Stripe invoice item the call is billed on, if billable.';
COMMENT ON COLUMN api_calls.extra IS 'Fields of the API record this version does not know, as a JSON object, so an API change loses nothing; NULL when there are none.';
COMMENT ON COLUMN api_calls.first_seen_run_id IS 'Exporter bookkeeping: the run (runs.run_id) that first stored this call.';
COMMENT ON COLUMN api_calls.last_changed_run_id IS 'Exporter bookkeeping: the run (runs.run_id) that last changed this row.';
COMMENT ON COLUMN api_calls.price_raw IS 'API: price, as the API printed it, when price_usd is that value rounded half-even to the micro-dollar; NULL when price_usd is exact. See docs/money.md.';
COMMENT ON COLUMN api_calls.token_last4 IS 'API: the last 4 characters of token, all GET /user/api-tokens shows of a token (it obfuscates the rest): matches the call to its token''s id and label (call_token_match). Not the secret. NULL with --token-column drop, and in rows stored before this column existed until they are read again.';
COMMENT ON COLUMN api_calls.price_flags IS 'What is unusual about the price: rounded, negative or negative,rounded; NULL for an ordinary price. See docs/money.md.';

COMMENT ON TABLE rejects IS 'Records that could not be loaded (API calls, async operations, credits balances), kept with the reason instead of dropped; a run with rejects exits with code 4.';
COMMENT ON COLUMN rejects.run_id IS 'The run (runs.run_id) that rejected the record.';
COMMENT ON COLUMN rejects.rejected_at IS 'When the record was rejected (UTC).';
COMMENT ON COLUMN rejects.record_id IS 'The id of the rejected record when it has one that can be read; NULL otherwise.';
COMMENT ON COLUMN rejects.reason IS 'Why it was rejected: the field and what was wrong with it, or DuckDB''s error.';
COMMENT ON COLUMN rejects.raw_json IS 'The record as received, JSON text (an operation''s output files replaced by their sizes).';

COMMENT ON TABLE runs IS 'One row per export run: written at start (status running), updated at the end with the run''s counts.';
COMMENT ON COLUMN runs.run_id IS 'The run''s id, as in api_calls.first_seen_run_id, rejects.run_id and the logs.';
COMMENT ON COLUMN runs.started_at IS 'When the run started (UTC).';
COMMENT ON COLUMN runs.finished_at IS 'When the run ended (UTC); NULL for a run still going or killed.';
COMMENT ON COLUMN runs.status IS 'running, completed, partial (rejects, or stopped early), failed, interrupted, or crashed (the process ended without finishing: found by the next run).';
COMMENT ON COLUMN runs.scan_mode IS 'How the listing was scanned: full (from the beginning), incremental (from the lookback window) or resume (an interrupted scan''s checkpoint).';
COMMENT ON COLUMN runs.requests IS 'HTTP requests the run made to the API, retries included.';
COMMENT ON COLUMN runs.pages IS 'Pages of GET /user/api-calls the run read.';
COMMENT ON COLUMN runs.records_seen IS 'API call records the run read from the listing.';
COMMENT ON COLUMN runs.records_new IS 'Calls the run stored for the first time.';
COMMENT ON COLUMN runs.records_updated IS 'Stored calls the run replaced with a newer version (higher updated_at), re-reads included.';
COMMENT ON COLUMN runs.records_rejected IS 'API call records the run put in rejects.';
COMMENT ON COLUMN runs.partitions_written IS 'Parquet partition files the run rewrote.';
COMMENT ON COLUMN runs.retries IS 'Requests the run retried (429, 5xx, network errors).';
COMMENT ON COLUMN runs.message IS 'What stopped the run, then its warnings, separated by semicolons; NULL when there were none.';

COMMENT ON TABLE internal.export_state IS 'Exporter bookkeeping: the checkpoint, one row, committed in the same transaction as the rows it covers.';
COMMENT ON COLUMN internal.export_state.singleton IS 'Always true: keeps the table at one row.';
COMMENT ON COLUMN internal.export_state.user_id IS 'The user whose calls this database holds; a token of another user is refused.';
COMMENT ON COLUMN internal.export_state.resume_token IS 'Where an interrupted scan continues: a page token sealed with AES-256-GCM under the export''s secret key; NULL once a scan has reached the end.';
COMMENT ON COLUMN internal.export_state.resume_run_id IS 'The run that wrote resume_token.';
COMMENT ON COLUMN internal.export_state.high_water_created IS 'The highest created_at stored (UTC): the lookback window of a nightly run ends here.';
COMMENT ON COLUMN internal.export_state.last_complete_scan IS 'When a scan last reached the end of the listing (UTC).';
COMMENT ON COLUMN internal.export_state.duration_unit IS 'The unit of api_calls.duration_raw that duration_ms was derived with: ns, us, ms or s (--duration-unit).';
COMMENT ON COLUMN internal.export_state.partitioning IS 'How the Parquet dataset is partitioned: month or day (--partition).';

COMMENT ON TABLE internal.page_ladder IS 'Exporter bookkeeping: sealed page tokens of scanned pages, so a nightly run restarts before its lookback window instead of from the beginning.';
COMMENT ON COLUMN internal.page_ladder.last_created_at IS 'The created_at of the last call on the page the token follows (UTC).';
COMMENT ON COLUMN internal.page_ladder.token IS 'The next_page token of that page, sealed with AES-256-GCM under the export''s secret key.';
COMMENT ON COLUMN internal.page_ladder.run_id IS 'The run that read the page.';

COMMENT ON TABLE internal.parquet_dirty IS 'Exporter bookkeeping: Parquet partitions whose rows changed and are not yet rewritten; cleared once the partition file is swapped in.';
COMMENT ON COLUMN internal.parquet_dirty.dataset IS 'The Parquet dataset: api_calls or async_operations.';
COMMENT ON COLUMN internal.parquet_dirty.partition IS 'The partition: the UTC month (or day, with --partition day) of created_at, as in the dataset''s folder names.';

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

COMMENT ON TABLE internal.own_calls IS 'Exporter bookkeeping: the x-api-call-id of every response an export received, per run; marks the exporter''s own calls (is_own_call) when they come back in the listing.';
COMMENT ON COLUMN internal.own_calls.id IS 'The x-api-call-id response header: the id of that request as an API call (api_calls.id).';
COMMENT ON COLUMN internal.own_calls.run_id IS 'The run that made the request.';

COMMENT ON TABLE internal.pending_rereads IS 'Exporter bookkeeping: stored calls pending billing from before the lookback window, re-read one by one (GET /user/api-calls/{id}).';
COMMENT ON COLUMN internal.pending_rereads.id IS 'The call (api_calls.id).';
COMMENT ON COLUMN internal.pending_rereads.last_asked_at IS 'When a run last asked the API for it (UTC, the run''s clock). It is due again 2^(asks - 1) days later (at most 16, less 12 hours), or on the first run at least a day after a month starts; the due ones asked longest ago come first.';
COMMENT ON COLUMN internal.pending_rereads.asks IS 'How many times runs have asked for it: the wait before the next ask doubles with each (1, 2, 4, 8, then 16 days).';
COMMENT ON COLUMN internal.pending_rereads.not_found IS 'True when the API answered 404: the stored row is kept as it is and not asked again.';

COMMENT ON TABLE internal.warehouse_identity IS 'Exporter bookkeeping: which warehouse this is; the Parquet dataset records the id of the warehouse that writes it (_zoo_usage_owner.json).';
COMMENT ON COLUMN internal.warehouse_identity.warehouse_id IS 'A random UUID made when the database was created.';
COMMENT ON COLUMN internal.warehouse_identity.created_at IS 'When the id was made (UTC).';
COMMENT ON COLUMN internal.warehouse_identity.scope IS 'Whose calls the warehouse holds: user (the token''s own, GET /user/api-calls) or org (every member''s, GET /org/api-calls); NULL in a warehouse made before scopes, which is user scope. Set by the first export; a run of the other scope is refused.';
COMMENT ON COLUMN internal.warehouse_identity.owner_id IS 'The owner of the data: the user id in user scope (as internal.export_state.user_id), the org id (GET /org) in org scope. A run for another owner is refused.';

COMMENT ON VIEW api_calls_enriched IS 'api_calls with the UTC day and month, whether billing is pending, and whether the call is the exporter''s own.';
COMMENT ON COLUMN api_calls_enriched.day IS 'The UTC day of created_at.';
COMMENT ON COLUMN api_calls_enriched.month IS 'The UTC month of created_at, as the DATE of its first day (2026-10-01).';
COMMENT ON COLUMN api_calls_enriched.billing_pending IS 'True while billing has not completed (completed_at is NULL): the price may still change.';
COMMENT ON COLUMN api_calls_enriched.is_own_call IS 'True for a request of the exporter itself: its id is in internal.own_calls or its user_agent starts with zoo-usage/.';

COMMENT ON VIEW api_calls_excluding_own IS 'api_calls_enriched without the exporter''s own calls.';

COMMENT ON VIEW cost_per_day IS 'Calls and cost per UTC day of created_at, every call.';
COMMENT ON COLUMN cost_per_day.calls IS 'Calls created that day.';
COMMENT ON COLUMN cost_per_day.priced_calls IS 'Calls with a price (price_usd not NULL).';
COMMENT ON COLUMN cost_per_day.pending_calls IS 'Calls whose billing has not completed.';
COMMENT ON COLUMN cost_per_day.cost_usd IS 'The exact sum of price_usd in USD, DECIMAL(18,6) (0 when no call is priced).';

COMMENT ON VIEW cost_per_month IS 'Calls and cost per UTC month of created_at, every call.';
COMMENT ON COLUMN cost_per_month.calls IS 'Calls created that month.';

COMMENT ON VIEW cost_per_day_excluding_own IS 'cost_per_day without the exporter''s own calls.';
COMMENT ON VIEW cost_per_month_excluding_own IS 'cost_per_month without the exporter''s own calls.';

COMMENT ON VIEW own_calls_per_month IS 'The exporter''s own calls and their cost per UTC month, beside the totals.';
COMMENT ON COLUMN own_calls_per_month.calls IS 'All calls created that month.';
COMMENT ON COLUMN own_calls_per_month.own_calls IS 'The exporter''s own calls among them.';
COMMENT ON COLUMN own_calls_per_month.cost_usd IS 'The exact sum of price_usd of all calls in USD, DECIMAL(18,6).';
COMMENT ON COLUMN own_calls_per_month.own_cost_usd IS 'The exact sum of price_usd of the exporter''s own calls in USD, DECIMAL(18,6).';
COMMENT ON COLUMN own_calls_per_month.cost_excluding_own_usd IS 'The exact sum of price_usd of all other calls in USD, DECIMAL(18,6).';

COMMENT ON VIEW cost_per_endpoint IS 'Calls and cost per endpoint_template, every call, most expensive first.';
COMMENT ON COLUMN cost_per_endpoint.calls IS 'Calls to the endpoint.';
COMMENT ON COLUMN cost_per_endpoint.max_price_usd IS 'The highest price_usd of one call, USD.';
COMMENT ON COLUMN cost_per_endpoint.first_call_at IS 'created_at of the first call (UTC).';
COMMENT ON COLUMN cost_per_endpoint.last_call_at IS 'created_at of the last call (UTC).';

COMMENT ON VIEW cost_per_day_endpoint IS 'Calls and cost per UTC day and endpoint_template, every call.';
COMMENT ON COLUMN cost_per_day_endpoint.calls IS 'Calls to the endpoint that day.';

COMMENT ON VIEW cost_per_method_status IS 'Calls and cost per HTTP method and status code, every call.';
COMMENT ON COLUMN cost_per_method_status.calls IS 'Calls with that method and status code.';

COMMENT ON VIEW pending_billing IS 'Calls whose billing has not completed (completed_at is NULL): their price may still change.';

COMMENT ON VIEW duration_unit_evidence IS 'The unit the undocumented duration implies: raw units per microsecond of completed_at - started_at, over calls created in the last 7 days of the history. See docs/duration.md.';
COMMENT ON COLUMN duration_unit_evidence.calls_compared IS 'Calls with a positive duration_raw and completed_at after started_at.';
COMMENT ON COLUMN duration_unit_evidence.median_raw_per_us IS 'The median of duration_raw per microsecond of billing: about 1000 means ns, 1 us, 0.001 ms, 0.000001 s.';
COMMENT ON COLUMN duration_unit_evidence.p05_raw_per_us IS 'The 5th percentile of duration_raw per microsecond of billing.';
COMMENT ON COLUMN duration_unit_evidence.p95_raw_per_us IS 'The 95th percentile of duration_raw per microsecond of billing.';
COMMENT ON COLUMN duration_unit_evidence.implied_unit IS 'The unit the median implies: ns, us, ms, s, or unclear.';

COMMENT ON VIEW operations_with_cost IS 'Async operations found by the API, joined to the API calls that started them (same id) for their price.';
COMMENT ON COLUMN operations_with_cost.price_usd IS 'price_usd of the API call that started the operation, USD DECIMAL(18,6).';
COMMENT ON COLUMN operations_with_cost.endpoint_template IS 'endpoint_template of the API call that started the operation.';
COMMENT ON COLUMN operations_with_cost.billing_pending IS 'True while the billing of the starting call has not completed: the price may still change.';

COMMENT ON VIEW cost_per_operation_type IS 'Operations and their cost per type and status.';
COMMENT ON COLUMN cost_per_operation_type.operations IS 'Operations of that type and status.';
COMMENT ON COLUMN cost_per_operation_type.priced_operations IS 'Operations whose starting call has a price.';
COMMENT ON COLUMN cost_per_operation_type.cost_usd IS 'The exact sum of the starting calls'' price_usd in USD, DECIMAL(18,6).';

COMMENT ON VIEW billed_failed_operations IS 'Operations that failed but were billed (price_usd > 0), most expensive first.';

COMMENT ON VIEW operation_timings IS 'Queue and run times of completed operations per type: 50th, 90th and 99th percentiles in milliseconds.';
COMMENT ON COLUMN operation_timings.operations IS 'Completed operations of that type.';
COMMENT ON COLUMN operation_timings.queue_ms_p50 IS 'Median queue_ms (created to started), milliseconds.';
COMMENT ON COLUMN operation_timings.queue_ms_p90 IS '90th percentile of queue_ms, milliseconds.';
COMMENT ON COLUMN operation_timings.queue_ms_p99 IS '99th percentile of queue_ms, milliseconds.';
COMMENT ON COLUMN operation_timings.run_ms_p50 IS 'Median run_ms (started to completed), milliseconds.';
COMMENT ON COLUMN operation_timings.run_ms_p90 IS '90th percentile of run_ms, milliseconds.';
COMMENT ON COLUMN operation_timings.run_ms_p99 IS '99th percentile of run_ms, milliseconds.';

COMMENT ON VIEW conversion_pairs IS 'File conversions per source and output format: how many, how many failed, and their cost.';
COMMENT ON COLUMN conversion_pairs.conversions IS 'File conversions between the two formats.';
COMMENT ON COLUMN conversion_pairs.failed IS 'Those whose status is failed.';
COMMENT ON COLUMN conversion_pairs.cost_usd IS 'The exact sum of the starting calls'' price_usd in USD, DECIMAL(18,6).';

COMMENT ON TABLE invoices IS 'One row per invoice of the exported account (GET /user/payment/invoices, or /org/payment/invoices with --scope org), replaced on every run as its status moves (draft, open, paid). Money is exact DECIMAL(18,6) USD read from the JSON text; absent fields take the spec''s defaults. See docs/invoices-and-credits.md.';
COMMENT ON COLUMN invoices.id IS 'API: Invoice.id. The invoice''s unique identifier (Stripe in_...); an invoice without one is rejected.';
COMMENT ON COLUMN invoices.number IS 'API: Invoice.number. The identifying string printed on the invoice and its emails.';
COMMENT ON COLUMN invoices.status IS 'API: Invoice.status. draft, open, paid, uncollectible, void or unknown; NULL when the API gave none.';
COMMENT ON COLUMN invoices.created_at IS 'API: Invoice.created_at. When the invoice was made (UTC).';
COMMENT ON COLUMN invoices.currency IS 'API: Invoice.currency. Three-letter ISO currency code as sent (spec default USD).';
COMMENT ON COLUMN invoices.amount_due IS 'API: Invoice.amount_due. Final amount due for the invoice (may be 0 after credits), exact DECIMAL(18,6); 0 when absent (spec default).';
COMMENT ON COLUMN invoices.amount_paid IS 'API: Invoice.amount_paid. The amount paid, exact DECIMAL(18,6); 0 when absent.';
COMMENT ON COLUMN invoices.amount_refunded IS 'API: Invoice.amount_refunded. Total refunded across the invoice''s captured charges, exact DECIMAL(18,6); 0 when absent.';
COMMENT ON COLUMN invoices.amount_remaining IS 'API: Invoice.amount_remaining. The amount still due, exact DECIMAL(18,6); 0 when absent.';
COMMENT ON COLUMN invoices.subtotal IS 'API: Invoice.subtotal. Total of the lines before invoice-level discounts and tax, exact DECIMAL(18,6); 0 when absent.';
COMMENT ON COLUMN invoices.tax IS 'API: Invoice.tax. The tax on the invoice, exact DECIMAL(18,6); 0 when absent.';
COMMENT ON COLUMN invoices.total IS 'API: Invoice.total. Total after discounts and taxes, exact DECIMAL(18,6); 0 when absent.';
COMMENT ON COLUMN invoices.attempt_count IS 'API: Invoice.attempt_count. Payment attempts made on the retry schedule; 0 when absent.';
COMMENT ON COLUMN invoices.attempted IS 'API: Invoice.attempted. Whether a payment attempt has been made; false when absent.';
COMMENT ON COLUMN invoices.paid IS 'API: Invoice.paid. Whether payment was collected; false when absent.';
COMMENT ON COLUMN invoices.billing_reason IS 'API: Invoice.billing_reason. Why the invoice was made (subscription_cycle, manual, ...); NULL when not given.';
COMMENT ON COLUMN invoices.collection_method IS 'API: Invoice.collection_method. How Stripe collects it; NULL when not given.';
COMMENT ON COLUMN invoices.customer_email IS 'API: Invoice.customer_email. The billed customer''s email: kept, hashed (HMAC-SHA256) or NULL per --email-column, like api_calls.email. Personal data.';
COMMENT ON COLUMN invoices.customer_id IS 'API: Invoice.customer_id. The customer''s id in the payments service (Stripe cus_...).';
COMMENT ON COLUMN invoices.default_payment_method IS 'API: Invoice.default_payment_method. The payment method''s id; NULL when not given.';
COMMENT ON COLUMN invoices.description IS 'API: Invoice.description. The invoice''s description; NULL when not given.';
COMMENT ON COLUMN invoices.discounts IS 'API: Invoice.discounts. The Discount objects applied, as JSON with numbers as sent; NULL when not given.';
COMMENT ON COLUMN invoices.metadata IS 'API: Invoice.metadata. Key-value strings, as a JSON object ({} when absent).';
COMMENT ON COLUMN invoices.pdf IS 'API: Invoice.pdf. Link to the invoice''s PDF; NULL when not given.';
COMMENT ON COLUMN invoices.receipt_number IS 'API: Invoice.receipt_number. The transaction number on receipts; NULL when not given.';
COMMENT ON COLUMN invoices.refund_status IS 'API: Invoice.refund_status. partially_refunded or refunded once refunds have posted; NULL otherwise.';
COMMENT ON COLUMN invoices.statement_descriptor IS 'API: Invoice.statement_descriptor. The text on the card statement; NULL when not given.';
COMMENT ON COLUMN invoices.subscription_id IS 'API: Invoice.subscription_id. The subscription the invoice belongs to, if any.';
COMMENT ON COLUMN invoices.url IS 'API: Invoice.url. The hosted invoice page; NULL when not given.';
COMMENT ON COLUMN invoices.extra IS 'Fields of the API''s Invoice this version does not know, as a JSON object with numbers as sent; NULL when there are none.';
COMMENT ON COLUMN invoices.first_seen_run_id IS 'Exporter bookkeeping: the run (runs.run_id) that first stored this invoice.';
COMMENT ON COLUMN invoices.last_seen_run_id IS 'Exporter bookkeeping: the run (runs.run_id) that last listed and stored this invoice.';
COMMENT ON COLUMN invoices.money_raw IS 'The invoice''s money fields that had more than 6 decimals, as a JSON object of each field''s text as printed (their columns hold it rounded half-even to the micro-dollar); NULL when every amount is stored exactly. README: Money.';
COMMENT ON COLUMN invoices.money_flags IS '''rounded'' when an amount of the invoice is rounded to the micro-dollar (see money_raw); NULL otherwise.';

COMMENT ON TABLE invoice_lines IS 'The lines of each invoice (API: Invoice.lines, InvoiceLineItem), in the invoice''s order, replaced with their invoice on every run. See docs/invoices-and-credits.md.';
COMMENT ON COLUMN invoice_lines.invoice_id IS 'The invoice (invoices.id) the line belongs to.';
COMMENT ON COLUMN invoice_lines.line_number IS 'The line''s position in Invoice.lines, from 1 (invoice items newest first, then the subscription, per the spec).';
COMMENT ON COLUMN invoice_lines.id IS 'API: InvoiceLineItem.id. The line''s unique identifier; NULL when not given.';
COMMENT ON COLUMN invoice_lines.amount IS 'API: InvoiceLineItem.amount. The line''s amount in USD, exact DECIMAL(18,6); 0 when absent (spec default).';
COMMENT ON COLUMN invoice_lines.currency IS 'API: InvoiceLineItem.currency. Three-letter ISO currency code as sent (spec default USD).';
COMMENT ON COLUMN invoice_lines.description IS 'API: InvoiceLineItem.description. The line''s description.';
COMMENT ON COLUMN invoice_lines.invoice_item IS 'API: InvoiceLineItem.invoice_item. The invoice item the line bills: calls whose api_calls.stripe_invoice_item_id is this are billed on it.';
COMMENT ON COLUMN invoice_lines.metadata IS 'API: InvoiceLineItem.metadata. Key-value strings, as a JSON object ({} when absent).';
COMMENT ON COLUMN invoice_lines.extra IS 'Fields of the API''s InvoiceLineItem this version does not know, as a JSON object; NULL when there are none.';
COMMENT ON COLUMN invoice_lines.last_seen_run_id IS 'Exporter bookkeeping: the run (runs.run_id) that last stored this line.';
COMMENT ON COLUMN invoice_lines.money_raw IS 'The line''s amount as printed, as a JSON object {"amount": text}, when it had more than 6 decimals (amount holds it rounded half-even); NULL when stored exactly.';
COMMENT ON COLUMN invoice_lines.money_flags IS '''rounded'' when the line''s amount is rounded to the micro-dollar (see money_raw); NULL otherwise.';

COMMENT ON VIEW invoice_item_calls IS 'Per invoice item (api_calls.stripe_invoice_item_id, not empty): the calls billed on it and what they cost.';
COMMENT ON COLUMN invoice_item_calls.invoice_item IS 'The invoice item the calls carry in stripe_invoice_item_id.';
COMMENT ON COLUMN invoice_item_calls.calls IS 'Stored calls billed on the item.';
COMMENT ON COLUMN invoice_item_calls.calls_cost_usd IS 'Exact sum of those calls'' price_usd, DECIMAL(38,6).';
COMMENT ON COLUMN invoice_item_calls.first_call_month IS 'The UTC month (its first day) of the earliest call billed on the item.';
COMMENT ON COLUMN invoice_item_calls.last_call_month IS 'The UTC month (its first day) of the latest call billed on the item.';

COMMENT ON VIEW invoice_totals IS 'Per invoice: whether it counts as invoiced (neither draft nor void), the usage month it bills, and whether its stored lines add up to its subtotal (Stripe embeds only the first lines of an invoice). docs/reconciliation.md.';
COMMENT ON COLUMN invoice_totals.invoice_id IS 'The invoice (invoices.id).';
COMMENT ON COLUMN invoice_totals.invoice_number IS 'The invoice''s number (invoices.number).';
COMMENT ON COLUMN invoice_totals.invoice_status IS 'The invoice''s status (invoices.status): draft, open, paid, uncollectible or void.';
COMMENT ON COLUMN invoice_totals.invoice_created_at IS 'When the invoice was made (invoices.created_at, UTC).';
COMMENT ON COLUMN invoice_totals.is_final IS 'true unless the invoice is a draft or void: open, paid and uncollectible invoices (and those without a status) count as invoiced.';
COMMENT ON COLUMN invoice_totals.usage_month IS 'The UTC month (its first day) the invoice bills: the latest month of the calls its lines bill, else the month before it was made (Zoo invoices usage in arrears).';
COMMENT ON COLUMN invoice_totals.lines IS 'Lines stored for the invoice.';
COMMENT ON COLUMN invoice_totals.lines_usd IS 'Exact sum of the stored lines'' amounts, DECIMAL(38,6).';
COMMENT ON COLUMN invoice_totals.subtotal_usd IS 'The invoice''s subtotal (invoices.subtotal), DECIMAL(38,6).';
COMMENT ON COLUMN invoice_totals.lines_complete IS 'lines_usd = subtotal_usd exactly; false: the lines are incomplete (a cut list), and calls no stored line names wait on this invoice instead of counting as not invoiced.';

COMMENT ON VIEW invoice_line_reconciliation IS 'Per invoice line: its class (usage, other_charge, credit) and, for a usage line of an invoice that counts, its amount against the calls billed on its invoice item. Compared as DECIMAL, never through a double. docs/reconciliation.md.';
COMMENT ON COLUMN invoice_line_reconciliation.invoice_id IS 'The invoice (invoices.id) of the line.';
COMMENT ON COLUMN invoice_line_reconciliation.invoice_number IS 'The invoice''s number (invoices.number).';
COMMENT ON COLUMN invoice_line_reconciliation.invoice_status IS 'The invoice''s status (invoices.status).';
COMMENT ON COLUMN invoice_line_reconciliation.invoice_created_at IS 'When the invoice was made (invoices.created_at, UTC).';
COMMENT ON COLUMN invoice_line_reconciliation.invoice_final IS 'The invoice counts as invoiced (invoice_totals.is_final): neither draft nor void.';
COMMENT ON COLUMN invoice_line_reconciliation.invoice_lines_complete IS 'The invoice''s stored lines add up to its subtotal (invoice_totals.lines_complete).';
COMMENT ON COLUMN invoice_line_reconciliation.line_number IS 'The line''s position in the invoice, from 1.';
COMMENT ON COLUMN invoice_line_reconciliation.line_id IS 'The line''s id (invoice_lines.id).';
COMMENT ON COLUMN invoice_line_reconciliation.invoice_item IS 'The invoice item the line bills (invoice_lines.invoice_item).';
COMMENT ON COLUMN invoice_line_reconciliation.description IS 'The line''s description.';
COMMENT ON COLUMN invoice_line_reconciliation.currency IS 'The line''s currency as sent; the calls are priced in USD, so only a USD line compares like with like.';
COMMENT ON COLUMN invoice_line_reconciliation.usage_month IS 'The UTC month (its first day) the line''s invoice bills (invoice_totals.usage_month).';
COMMENT ON COLUMN invoice_line_reconciliation.line_class IS 'usage: stored calls carry the line''s invoice item; credit: none does and the amount is negative (a credit or discount); other_charge: none does (a subscription, a manual charge), shown apart and never a usage difference.';
COMMENT ON COLUMN invoice_line_reconciliation.line_amount_usd IS 'The line''s amount, exact DECIMAL(38,6).';
COMMENT ON COLUMN invoice_line_reconciliation.item_lines IS 'Lines, on invoices of the same standing (counting or not), that bill the line''s item: 1 but for an item billed more than once; 1 for other charges and credits.';
COMMENT ON COLUMN invoice_line_reconciliation.item_lines_usd IS 'Exact sum of those lines'' amounts, DECIMAL(38,6): what is compared with the item''s calls.';
COMMENT ON COLUMN invoice_line_reconciliation.calls IS 'Stored calls whose stripe_invoice_item_id is the line''s invoice item.';
COMMENT ON COLUMN invoice_line_reconciliation.calls_cost_usd IS 'Exact sum of those calls'' price_usd (0 without calls), DECIMAL(38,6).';
COMMENT ON COLUMN invoice_line_reconciliation.difference_usd IS 'On the first line of an item on invoices that count: item_lines_usd - calls_cost_usd, exact (positive when the invoices bill more than the calls cost); 0 on every other line, so an item''s difference is counted once.';
COMMENT ON COLUMN invoice_line_reconciliation.status IS 'Usage lines: agrees (the item''s lines add up to its calls'' cost exactly), differs, same_item (a later line of an item compared on its first line) or not_final (a draft or void invoice); other lines: their line_class.';

COMMENT ON VIEW invoice_lines_without_calls IS 'The invoice lines no stored call is billed on (line_class other_charge or credit): a subscription, a manual charge, a discount, or calls not exported.';

COMMENT ON VIEW call_billing_class IS 'Every priced call in exactly one billing class: invoiced, not_billed (no invoice item: credits or a free allowance paid), awaiting_invoice or unexplained, with the reason. docs/reconciliation.md.';
COMMENT ON COLUMN call_billing_class.id IS 'The call (api_calls.id).';
COMMENT ON COLUMN call_billing_class.created_at IS 'When the call was created (UTC).';
COMMENT ON COLUMN call_billing_class.month IS 'The call''s UTC month (its first day).';
COMMENT ON COLUMN call_billing_class.price_usd IS 'The call''s price, exact DECIMAL(18,6).';
COMMENT ON COLUMN call_billing_class.stripe_invoice_item_id IS 'The invoice item the call names; NULL when it names none.';
COMMENT ON COLUMN call_billing_class.billing_class IS 'invoiced: its item is on a line of an invoice neither draft nor void; not_billed: it names no item (set only if billable), so credits or a free allowance covered it; awaiting_invoice: see reason; unexplained: no line names its item although the invoice due to carry it counts and its lines are whole.';
COMMENT ON COLUMN call_billing_class.reason IS 'on_invoice, no_invoice_item, billing_pending (no item yet, billing not completed), invoice_draft, invoice_void, month_open (no invoice since its month ended), billed_late (billed after its month''s invoice: waits for the next), invoice_incomplete (the due invoice''s lines fall short of its subtotal), item_not_on_any_line.';
COMMENT ON COLUMN call_billing_class.invoice_id IS 'The invoice whose line names the call''s item, else the invoice due to carry it (the first not void made after its month ended and it was last updated); NULL without an item or such an invoice.';

COMMENT ON VIEW calls_not_invoiced IS 'The unexplained calls of call_billing_class: a priced call whose item no invoice line names although the invoice due to carry it counts and its lines add up to its subtotal. Calls paid by credits, waiting for an invoice or on an invoice with incomplete lines are not here.';
COMMENT ON COLUMN calls_not_invoiced.id IS 'The call (api_calls.id).';
COMMENT ON COLUMN calls_not_invoiced.created_at IS 'When the call was created (UTC).';
COMMENT ON COLUMN calls_not_invoiced.month IS 'The call''s UTC month (its first day).';
COMMENT ON COLUMN calls_not_invoiced.price_usd IS 'The call''s price, exact DECIMAL(18,6).';
COMMENT ON COLUMN calls_not_invoiced.stripe_invoice_item_id IS 'The invoice item the call names.';
COMMENT ON COLUMN calls_not_invoiced.invoice_id IS 'The invoice due to carry the call, which does not.';
COMMENT ON COLUMN calls_not_invoiced.reason IS 'Always item_not_on_any_line.';

COMMENT ON VIEW monthly_reconciliation IS 'Per UTC month: usage = invoiced + not billed + awaiting + unexplained, exactly; the lines of invoices that count, by class; usage lines that disagree with their calls; what credits paid. status differs only for a non-zero unexplained amount. docs/reconciliation.md.';
COMMENT ON COLUMN monthly_reconciliation.month IS 'The UTC month (its first day): of the calls'' created_at, and of the invoices'' usage_month.';
COMMENT ON COLUMN monthly_reconciliation.calls IS 'Stored calls created in the month.';
COMMENT ON COLUMN monthly_reconciliation.priced_calls IS 'Those with a price.';
COMMENT ON COLUMN monthly_reconciliation.usage_cost_usd IS 'Exact sum of the month''s calls'' price_usd, DECIMAL(38,6): invoiced_usage_usd + not_billed_usd + awaiting_usd + unexplained_usd.';
COMMENT ON COLUMN monthly_reconciliation.invoiced_calls IS 'The month''s calls in class invoiced (call_billing_class).';
COMMENT ON COLUMN monthly_reconciliation.invoiced_usage_usd IS 'Their exact price sum, DECIMAL(38,6), whichever invoice billed them.';
COMMENT ON COLUMN monthly_reconciliation.not_billed_calls IS 'The month''s calls in class not_billed: no invoice item, so credits or a free allowance paid them.';
COMMENT ON COLUMN monthly_reconciliation.not_billed_usd IS 'Their exact price sum, DECIMAL(38,6). Never a difference.';
COMMENT ON COLUMN monthly_reconciliation.credits_paid_usd IS 'How much of not_billed_usd the credits paid, as far as the balance snapshots saw: the lesser of not_billed_usd and credits_consumed_usd; NULL when the snapshots measured nothing in the month.';
COMMENT ON COLUMN monthly_reconciliation.credits_consumed_usd IS 'Credits consumed between balance snapshots taken within the month (monthly_credits); NULL without such a pair.';
COMMENT ON COLUMN monthly_reconciliation.monthly_allowance_usd IS 'The plan''s monthly API credit allowance as the month''s latest snapshot gives it (monthly_credits); NULL without one.';
COMMENT ON COLUMN monthly_reconciliation.awaiting_calls IS 'The month''s calls in class awaiting_invoice: the month has no invoice yet, a draft holds them, they were billed late, or their invoice''s lines are incomplete.';
COMMENT ON COLUMN monthly_reconciliation.awaiting_usd IS 'Their exact price sum, DECIMAL(38,6).';
COMMENT ON COLUMN monthly_reconciliation.on_incomplete_invoice_calls IS 'Of the awaiting calls, those on an invoice whose lines fall short of its subtotal (reason invoice_incomplete).';
COMMENT ON COLUMN monthly_reconciliation.unexplained_calls IS 'The month''s calls in class unexplained (calls_not_invoiced).';
COMMENT ON COLUMN monthly_reconciliation.unexplained_usd IS 'Their exact price sum, DECIMAL(38,6): 0.000000 when every priced call is explained.';
COMMENT ON COLUMN monthly_reconciliation.invoices IS 'Invoices, neither draft nor void, whose usage_month is the month.';
COMMENT ON COLUMN monthly_reconciliation.invoices_incomplete IS 'Of those, the ones whose stored lines do not add up to their subtotal.';
COMMENT ON COLUMN monthly_reconciliation.invoice_lines IS 'Lines of those invoices.';
COMMENT ON COLUMN monthly_reconciliation.invoiced_usd IS 'Exact sum of those lines'' amounts, every class, DECIMAL(38,6); 0 when the month has no invoice yet.';
COMMENT ON COLUMN monthly_reconciliation.usage_lines_usd IS 'Of invoiced_usd, the usage lines.';
COMMENT ON COLUMN monthly_reconciliation.other_charges_usd IS 'Of invoiced_usd, the other charges (subscriptions, manual charges): shown apart, never a difference.';
COMMENT ON COLUMN monthly_reconciliation.credits_usd IS 'Of invoiced_usd, the credit and discount lines (negative).';
COMMENT ON COLUMN monthly_reconciliation.lines_differing IS 'Usage items of the month whose lines do not add up to their calls'' cost: lines whose difference_usd is not 0 (invoice_line_reconciliation status differs).';
COMMENT ON COLUMN monthly_reconciliation.lines_difference_usd IS 'Exact sum of their differences, line minus calls, DECIMAL(38,6).';
COMMENT ON COLUMN monthly_reconciliation.status IS 'differs (a non-zero unexplained amount: an unexplained priced call or a usage line that disagrees), not_invoiced (calls wait for an invoice, none is invoiced yet), awaiting (some calls wait for an invoice) or agrees (every priced call explained).';

COMMENT ON VIEW monthly_credits IS 'Per UTC month: the credits consumed between balance snapshots taken within it, and the plan''s monthly allowance (subscription_details.modeling_app.monthly_pay_as_you_go_api_credits_monetary_value).';
COMMENT ON COLUMN monthly_credits.month IS 'The UTC month (its first day) of the snapshots.';
COMMENT ON COLUMN monthly_credits.credits_consumed_usd IS 'Sum of consumed_usd of the counted credit_burn pairs whose two snapshots are in the month, DECIMAL(38,6); NULL without one.';
COMMENT ON COLUMN monthly_credits.monthly_allowance_usd IS 'The plan''s monthly API credit allowance in USD at the month''s latest snapshot, exact from the JSON text; NULL when the snapshot has no subscription details.';
COMMENT ON TABLE balance_snapshots IS 'The API credits as GET /user/payment/balance (or /org/payment/balance with --scope org) reported them: one snapshot per export run, kept as a history for credit_burn and credit_runway.';
COMMENT ON COLUMN balance_snapshots.run_id IS 'The export run (runs.run_id) that took the snapshot.';
COMMENT ON COLUMN balance_snapshots.taken_at IS 'When the run read the balance, by the run''s clock (UTC).';
COMMENT ON COLUMN balance_snapshots.scope IS 'Whose balance: user (the token''s user) or org (the user''s organisation), as the export''s --scope.';
COMMENT ON COLUMN balance_snapshots.created_at IS 'API field CustomerBalance.created_at: when the balance was created (UTC).';
COMMENT ON COLUMN balance_snapshots.updated_at IS 'API field CustomerBalance.updated_at: when the balance was last updated (UTC).';
COMMENT ON COLUMN balance_snapshots.monthly_api_credits_remaining IS 'API field: monthly API credits left, a count (uint64). They refresh every month and do not carry over; spend pulls from them first.';
COMMENT ON COLUMN balance_snapshots.monthly_api_credits_remaining_monetary_value IS 'API field: the monetary value of the monthly credits left, USD DECIMAL(18,6), exact (more digits are rounded half-even, as a call''s price).';
COMMENT ON COLUMN balance_snapshots.monthly_api_credits_refresh_at IS 'API field: when the monthly credits next refresh (UTC); a past time means a refresh is due but not applied yet; NULL without a standard billing schedule.';
COMMENT ON COLUMN balance_snapshots.stable_api_credits_remaining IS 'API field: stable API credits left, a count (uint64). They never refresh; spend pulls from them once the monthly credits are gone.';
COMMENT ON COLUMN balance_snapshots.stable_api_credits_remaining_monetary_value IS 'API field: the monetary value of the stable credits left, USD DECIMAL(18,6), exact.';
COMMENT ON COLUMN balance_snapshots.total_due IS 'API field: outstanding, draft or open invoices and pending items, USD DECIMAL(18,6); NULL unless the API returns it (the export does not ask for it).';
COMMENT ON COLUMN balance_snapshots.subscription_id IS 'API field: the subscription id, or NULL.';
COMMENT ON COLUMN balance_snapshots.subscription_details IS 'API field: the subscription details (ZooProductSubscriptions) as JSON, or NULL.';
COMMENT ON COLUMN balance_snapshots.extra IS 'Fields of the balance the schema does not know yet, as a JSON object (NULL when there are none).';
COMMENT ON COLUMN balance_snapshots.money_raw IS 'The monetary values that had more than 6 decimals, as a JSON object of each field''s text as printed (their columns hold it rounded half-even to the micro-dollar); NULL when every value is stored exactly. README: Money.';
COMMENT ON COLUMN balance_snapshots.money_flags IS '''rounded'' when a monetary value of the snapshot is rounded to the micro-dollar (see money_raw); NULL otherwise.';

COMMENT ON VIEW credit_burn IS 'The credits consumed between consecutive balance snapshots by the ledger''s rule (monthly credits first, then stable; monthly re-upped each month without carry-over; stable never reset), in USD and in credits, and that per day; a monthly refresh or a grant is never burn.';
COMMENT ON COLUMN credit_burn.run_id IS 'The run of the later snapshot.';
COMMENT ON COLUMN credit_burn.previous_taken_at IS 'When the earlier snapshot was taken (UTC).';
COMMENT ON COLUMN credit_burn.taken_at IS 'When the later snapshot was taken (UTC).';
COMMENT ON COLUMN credit_burn.elapsed_us IS 'Microseconds between the two snapshots.';
COMMENT ON COLUMN credit_burn.previous_remaining_usd IS 'Monthly + stable credits'' monetary value at the earlier snapshot, USD DECIMAL(38,6).';
COMMENT ON COLUMN credit_burn.remaining_usd IS 'Monthly + stable credits'' monetary value at the later snapshot, USD DECIMAL(38,6).';
COMMENT ON COLUMN credit_burn.previous_remaining_credits IS 'Monthly + stable credits (counts) at the earlier snapshot.';
COMMENT ON COLUMN credit_burn.remaining_credits IS 'Monthly + stable credits (counts) at the later snapshot.';
COMMENT ON COLUMN credit_burn.refreshed IS 'The monthly credits were re-upped between the two: the monthly value rose or monthly_api_credits_refresh_at moved.';
COMMENT ON COLUMN credit_burn.granted IS 'Stable credits were granted between the two: their value rose.';
COMMENT ON COLUMN credit_burn.consumed_credits IS 'The same consumption in credits (counts), by the same rule; NULL when not counted.';
COMMENT ON COLUMN credit_burn.counted IS 'False when the pair spans a monthly refresh (what was left may have expired rather than been spent), a grant with no monthly credits left at its end (the stable ones may have paid too), or starts with nothing left (the value cannot go below 0): such a pair says nothing exact about spend.';
COMMENT ON COLUMN credit_burn.consumed_usd IS 'What the monthly credits lost, plus what the stable ones lost unless granted, exact, USD DECIMAL(38,6); NULL when not counted. A refresh or a grant is never in it.';
COMMENT ON COLUMN credit_burn.burn_usd_per_day IS 'consumed_usd per day of elapsed_us, USD DECIMAL(18,6) rounded down to the micro-dollar (integer arithmetic, no float); NULL when not counted.';

COMMENT ON VIEW credit_runway IS 'When the credits run out at the current burn by the ledger''s rule: monthly credits are spent until their refresh and the rest expires, each month brings the plan''s allowance, stable credits pay the remainder; the burn from snapshot pairs of the last 30 days, else the priced spend of the last 30 days of calls.';
COMMENT ON COLUMN credit_runway.run_id IS 'The run of the latest snapshot.';
COMMENT ON COLUMN credit_runway.taken_at IS 'When the latest snapshot was taken (UTC).';
COMMENT ON COLUMN credit_runway.remaining_usd IS 'Monthly + stable credits'' monetary value at the latest snapshot, USD DECIMAL(38,6).';
COMMENT ON COLUMN credit_runway.monthly_usd IS 'The monthly credits'' monetary value at the latest snapshot, USD DECIMAL(18,6).';
COMMENT ON COLUMN credit_runway.stable_usd IS 'The stable credits'' monetary value at the latest snapshot, USD DECIMAL(18,6).';
COMMENT ON COLUMN credit_runway.remaining_credits IS 'Monthly + stable credits (counts) at the latest snapshot.';
COMMENT ON COLUMN credit_runway.monthly_credits IS 'API field monthly_api_credits_remaining at the latest snapshot (a count).';
COMMENT ON COLUMN credit_runway.stable_credits IS 'API field stable_api_credits_remaining at the latest snapshot (a count).';
COMMENT ON COLUMN credit_runway.monthly_refresh_at IS 'When the monthly credits next refresh, as the latest snapshot says (UTC).';
COMMENT ON COLUMN credit_runway.monthly_allowance_usd IS 'The plan''s monthly allowance (subscription_details.modeling_app.monthly_pay_as_you_go_api_credits_monetary_value) at the latest snapshot, USD DECIMAL(18,6); NULL when not given, and the runway then counts on none.';
COMMENT ON COLUMN credit_runway.burn_pairs IS 'Counted credit_burn pairs whose later snapshot is within the 30 days up to the latest one.';
COMMENT ON COLUMN credit_runway.snapshot_burn_usd_per_day IS 'The sum of those pairs'' consumed_usd over the sum of their elapsed time, per day, USD DECIMAL(38,6) rounded down; NULL without such a pair, or while they span less than half a day (runs minutes apart measure when bills landed, not a rate).';
COMMENT ON COLUMN credit_runway.spend_usd_per_day IS 'The priced spend (sum of api_calls.price_usd) of calls created in the 30 days up to the latest snapshot, per day of that window (from the first stored call when the history is shorter), USD DECIMAL(38,6) rounded down.';
COMMENT ON COLUMN credit_runway.burn_usd_per_day IS 'The current burn: snapshot_burn_usd_per_day when known, else spend_usd_per_day.';
COMMENT ON COLUMN credit_runway.burn_source IS 'Where burn_usd_per_day comes from: snapshots or api_calls.';
COMMENT ON COLUMN credit_runway.runway_days IS 'Days until the monthly and stable credits are both spent at burn_usd_per_day by the ledger''s rule, to a tenth; 0 when nothing is left; NULL when the burn is 0 or unknown, or the allowance keeps up with it.';
COMMENT ON COLUMN credit_runway.runs_out_at IS 'taken_at + the runway: the instant the credits run out at this rate and calls start being billed (UTC); taken_at when nothing is left (out by then); NULL when they do not run out within 100 years.';
COMMENT ON COLUMN credit_runway.runs_out_on IS 'The UTC day of runs_out_at.';
-- Who spent it (sql/spenders.sql).
COMMENT ON TABLE api_tokens IS 'The API tokens of the exporting token''s user (GET /user/api-tokens), refreshed each run; a token no longer listed keeps its row with an older last_seen_at. Never the secret: the API shows a token as its last 4 characters only.';
COMMENT ON COLUMN api_tokens.id IS 'API: id, the token''s own id (not the token).';
COMMENT ON COLUMN api_tokens.user_id IS 'API: user_id, the user who owns the token.';
COMMENT ON COLUMN api_tokens.label IS 'API: label, the name the user gave the token (NULL when none).';
COMMENT ON COLUMN api_tokens.token_last4 IS 'The last 4 characters of API: token, which the API obfuscates to them; matched against api_calls.token_last4.';
COMMENT ON COLUMN api_tokens.is_valid IS 'API: is_valid (tokens are never deleted, only marked invalid).';
COMMENT ON COLUMN api_tokens.created_at IS 'API: created_at (UTC).';
COMMENT ON COLUMN api_tokens.updated_at IS 'API: updated_at (UTC).';
COMMENT ON COLUMN api_tokens.first_seen_at IS 'When an export first listed the token (UTC).';
COMMENT ON COLUMN api_tokens.last_seen_at IS 'When an export last listed the token (UTC): older than the last run for a token the API no longer lists.';
COMMENT ON TABLE service_accounts IS 'The org''s service accounts (GET /org/service-accounts, org scope): tokens of the org rather than of a user, refreshed each run; one no longer listed keeps its row. Never the secret.';
COMMENT ON COLUMN service_accounts.id IS 'API: id, the service account''s own id.';
COMMENT ON COLUMN service_accounts.org_id IS 'API: org_id, the org that owns the service account.';
COMMENT ON COLUMN service_accounts.label IS 'API: label (NULL when none).';
COMMENT ON COLUMN service_accounts.token_last4 IS 'The last 4 characters of API: token, all that is kept of it; matched against api_calls.token_last4.';
COMMENT ON COLUMN service_accounts.is_valid IS 'API: is_valid.';
COMMENT ON COLUMN service_accounts.created_at IS 'API: created_at (UTC).';
COMMENT ON COLUMN service_accounts.updated_at IS 'API: updated_at (UTC).';
COMMENT ON COLUMN service_accounts.first_seen_at IS 'When an export first listed the service account (UTC).';
COMMENT ON COLUMN service_accounts.last_seen_at IS 'When an export last listed the service account (UTC).';
COMMENT ON TABLE org_members IS 'The org''s members (GET /org/members, org scope, admins only), refreshed each run; someone no longer listed keeps the row with an older last_seen_at.';
COMMENT ON COLUMN org_members.id IS 'API: id, the member''s user id (api_calls.user_id).';
COMMENT ON COLUMN org_members.name IS 'API: name, else first_name and last_name joined (NULL when the API gives none).';
COMMENT ON COLUMN org_members.email IS 'API: email, kept, hashed (HMAC-SHA256, as api_calls.email) or NULL per --email-column.';
COMMENT ON COLUMN org_members.role IS 'API: role in the org: admin, member or service_account.';
COMMENT ON COLUMN org_members.created_at IS 'API: created_at, when the user was created (UTC).';
COMMENT ON COLUMN org_members.updated_at IS 'API: updated_at (UTC).';
COMMENT ON COLUMN org_members.first_seen_at IS 'When an export first listed the member (UTC).';
COMMENT ON COLUMN org_members.last_seen_at IS 'When an export last listed the member (UTC).';
COMMENT ON VIEW call_token_match IS 'Each call with the token it was made with, matched on the user and the token''s last 4 characters (all the API shows of a token): matched, ambiguous or unmatched. See docs/who-spent-it.md.';
COMMENT ON COLUMN call_token_match.call_id IS 'api_calls.id.';
COMMENT ON COLUMN call_token_match.match_status IS 'matched: one token (of the call''s user) or service account (of its org) ends with token_last4; ambiguous: several do; unmatched: none does (not listed, another member''s token in user scope, or token_last4 NULL).';
COMMENT ON COLUMN call_token_match.candidates IS 'How many tokens and service accounts end with the call''s token_last4 (0 when unmatched).';
COMMENT ON COLUMN call_token_match.token_kind IS 'api_token or service_account when matched; NULL otherwise.';
COMMENT ON COLUMN call_token_match.token_id IS 'api_tokens.id or service_accounts.id when matched; NULL otherwise.';
COMMENT ON COLUMN call_token_match.token_label IS 'The matched token''s label; NULL when unmatched, ambiguous or unlabelled.';
COMMENT ON VIEW cost_per_token_label IS 'Calls and cost per token label: matched calls by kind and label, ambiguous and unmatched calls a group each, so the groups sum exactly to the total.';
COMMENT ON COLUMN cost_per_token_label.match_status IS 'As call_token_match.match_status.';
COMMENT ON COLUMN cost_per_token_label.token_kind IS 'api_token or service_account for matched calls; NULL for ambiguous and unmatched ones.';
COMMENT ON COLUMN cost_per_token_label.token_label IS 'The label; NULL for unlabelled tokens and for ambiguous and unmatched calls.';
COMMENT ON COLUMN cost_per_token_label.tokens IS 'Distinct tokens with this label that made calls (0 for ambiguous and unmatched).';
COMMENT ON COLUMN cost_per_token_label.calls IS 'Calls in the group.';
COMMENT ON VIEW cost_per_member IS 'Calls and cost per person (api_calls.user_id) with the member''s name, email and role from org_members; every call in one group, so the groups sum exactly to the total.';
COMMENT ON COLUMN cost_per_member.member_known IS 'true when org_members lists the user (org scope); false in user scope or for someone never listed.';
COMMENT ON COLUMN cost_per_member.calls IS 'Calls the user made.';
COMMENT ON VIEW cost_per_service_account IS 'Calls and cost per service account: the calls call_token_match matched to it (org scope).';
COMMENT ON COLUMN cost_per_service_account.service_account_id IS 'service_accounts.id.';
COMMENT ON COLUMN cost_per_service_account.calls IS 'Calls matched to the service account.';

-- The macros the views are written with: BI tools list them beside the views.
COMMENT ON MACRO is_own_call IS 'is_own_call(call_id, call_user_agent): true for a request of zoo-usage itself, by its id in internal.own_calls or its User-Agent (zoo-usage/...).';
COMMENT ON MACRO TABLE cost_per_day_of IS 'cost_per_day_of(include_own): the shape of cost_per_day (true) and cost_per_day_excluding_own (false).';
COMMENT ON MACRO TABLE cost_per_month_of IS 'cost_per_month_of(include_own): the shape of cost_per_month (true) and cost_per_month_excluding_own (false).';
COMMENT ON MACRO TABLE operation_starting_calls IS 'operation_starting_calls(templates): calls that may have started an async operation (a 2xx or unanswered POST on one of the templates, not the exporter''s own), with the operation stored for each.';
COMMENT ON MACRO TABLE operation_candidates IS 'operation_candidates(templates, window_start): the operations an export run fetches: not stored yet and created at or after window_start, or stored and not finished.';
COMMENT ON MACRO usd_per_day IS 'usd_per_day(usd, elapsed_us): usd spread over elapsed_us microseconds, USD per day rounded down to the micro-dollar in integer arithmetic; NULL when the time is not positive.';
