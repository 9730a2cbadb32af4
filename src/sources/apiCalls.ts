import { type CallsDetails, scanWithFallback } from "./calls/scanWithFallback.js";
import type { DeclaredSource } from "./declaredSource.js";

/**
 * The API calls of the token's user (GET /user/api-calls) or of the org it administers (GET
 * /org/api-calls, every member's), paged in ascending created_at from the stored page token
 * (ApiCallsSource: every page checked by paginate's and the cursor's guards, each record validated
 * into a row or a reject), upserted with the checkpoint in one transaction per batch. In org scope
 * the owner claimed is the org, and a call naming another org_id is stored with a warning.
 */
export const apiCalls: DeclaredSource<CallsDetails> = {
  name: "api calls",
  reads: "GET /{user,org}/api-calls",
  lands: "api_calls",
  disposition: "merge on `id` (newest `updated_at` wins)",
  position: "sealed page token and ladder in `internal.export_state`, `internal.page_ladder`",
  optional: false,
  phase: "scan",
  progress: "fetching",
  run: (context) => scanWithFallback(context),
  summarize: (summary, { counts, details }) => {
    summary.pages = counts.pages;
    summary.records_seen = counts.seen;
    summary.records_new = counts.inserted;
    summary.records_updated += counts.updated;
    summary.records_rejected += counts.rejected;
    if (details === undefined) return;
    summary.scan_mode = details.start.mode;
    summary.partitions_written += details.partitionsWritten;
    if (details.foreignOrgCalls > 0) summary.foreign_org_calls = details.foreignOrgCalls;
  },
};
