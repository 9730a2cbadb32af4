import type { CallsDetails } from "./calls/scanWithFallback.js";
import { scanWithFallback } from "./calls/scanWithFallback.js";
import type { DeclaredSource } from "./declaredSource.js";

/**
 * Every member's API calls of the org the token administers (GET /org/api-calls): the same schema,
 * paging, checkpoint and guards as the user's calls; the owner claimed is the org (GET /org).
 */
export const orgCalls: DeclaredSource<CallsDetails> = {
  name: "api calls",
  reads: "GET /org/api-calls",
  lands: "api_calls",
  disposition: { kind: "merge", key: "id" },
  position: "internal.export_state (sealed page token), internal.page_ladder",
  optional: false,
  phase: "scan",
  progress: "fetching",
  run: (context) => scanWithFallback(context),
};
