import type { ApiCallWithPrice } from "../api/schemas/index.js";
import { isUtcTime, KNOWN_FIELDS } from "./apiCallRow.js";
import { isPlainPrice } from "./money.js";

/**
 * True when DuckDB, reading this validated record's raw JSON with the bulk columns
 * (sql/statements/select_bulk_api_calls.sql), stores the same row as `toRow` would: then the
 * record need not be serialised again. The cases it cannot take go through the row path, with no loss:
 * - fields this version does not know (they go to `extra`, which the bulk read does not build);
 * - a price sent as a string (the row path reads any decimal text; the bulk read takes numbers), and a
 *   price that is not stored as it is or has more than 14 digits (isPlainPrice: the row path rounds
 *   and flags it; test/load/bulkLoad.test.ts shows DuckDB's number-to-DECIMAL(18,6) exact for the rest);
 * - a duration beyond 2^53 (a BigInt: the row path writes its digits);
 * - a time not written `...T...Z` (DuckDB cuts a UTC time's extra fraction digits as `toMicros`
 *   does, tested; offsets and lower-case letters are left to the row path).
 */
export function isBulkLoadable(call: ApiCallWithPrice, source: Record<string, unknown>): boolean {
  if (typeof source.price === "string") return false;
  if (call.price !== null && call.price !== undefined && !isPlainPrice(call.price)) return false;
  if (typeof call.duration === "bigint") return false;
  if (!isUtcTime(call.created_at) || !isUtcTime(call.updated_at)) return false;
  if (!isNullOrUtcTime(call.started_at) || !isNullOrUtcTime(call.completed_at)) return false;
  for (const key in source) {
    if (!KNOWN_FIELDS.has(key)) return false;
  }
  return true;
}

function isNullOrUtcTime(time: string | null | undefined): boolean {
  return time === null || time === undefined || isUtcTime(time);
}
