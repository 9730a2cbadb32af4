/**
 * What the loader derives from created_at (insert_api_calls.sql), for a test that writes api_calls
 * rows itself: the views group by these columns, never by created_at.
 */
export const FILL_CALL_DAYS =
  "UPDATE api_calls SET created_day = utc_day(created_at), created_month = utc_month(created_at) WHERE created_day IS NULL";
