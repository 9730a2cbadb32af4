import { callsSource } from "./calls/scanWithFallback.js";

/**
 * The token user's API calls (GET /user/api-calls), paged in ascending created_at from the stored
 * page token (ApiCallsSource: every page checked by paginate's and the cursor's guards, each record
 * validated into a row or a reject), upserted with the checkpoint in one transaction per batch.
 */
export const userCalls = callsSource("GET /user/api-calls");
