import type { CallsDetails } from "./calls/scanWithFallback.js";
import { scanWithFallback } from "./calls/scanWithFallback.js";
import type { DeclaredSource } from "./declaredSource.js";

/**
 * The token user's API calls (GET /user/api-calls), paged in ascending created_at from the stored
 * page token (ApiCallsSource: every page checked by paginate's and the cursor's guards, each record
 * validated into a row or a reject), upserted with the checkpoint in one transaction per batch.
 */
export const userCalls: DeclaredSource<CallsDetails> = {
  name: "api calls",
  reads: "GET /user/api-calls",
  lands: "api_calls",
  disposition: { kind: "merge", key: "id" },
  position: "internal.export_state (sealed page token), internal.page_ladder",
  optional: false,
  phase: "scan",
  progress: "fetching",
  run: (context) => scanWithFallback(context),
};
