import { callsSource } from "./calls/scanWithFallback.js";

/**
 * Every member's API calls of the org the token administers (GET /org/api-calls): the same schema,
 * paging, checkpoint and guards as the user's calls; the owner claimed is the org (GET /org), and a
 * call naming another org_id is stored with a warning (foreign_org_calls).
 */
export const orgCalls = callsSource("GET /org/api-calls");
