import type { ApiCallWithPrice } from "./apiCall.js";
import { canonicalPrice, INT32_MAX, INT32_MIN } from "./apiCall.js";
import { METHODS } from "./enums.js";
import { isRfc3339DateTime, isUuid, isWellFormedText } from "./primitives.js";

const METHOD_SET: ReadonlySet<unknown> = new Set(METHODS);

/**
 * What ApiCallWithPriceSchema.safeParse returns for an ordinary record, without zod's machinery, which
 * costs several times as much on every record of a full scan. Anything else (a missing or
 * mistyped field, a price sent as text) returns undefined and the caller asks zod, so every rejection
 * and every unusual record is still zod's to judge and to explain. Mirrors the schema field by field;
 * test/api/apiCallFastPath.test.ts checks that whatever it accepts, zod accepts with an equal result,
 * trying every field of the schema with every kind of value: a field added to the schema and not
 * here fails it.
 */
export function parseApiCallFast(raw: unknown): ApiCallWithPrice | undefined {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return undefined;
  const record = raw as Record<string, unknown>;
  if (!isUuidValue(record.id) || !isUuidValue(record.user_id) || !isUuidValue(record.token)) return undefined;
  if (!isTimeValue(record.created_at) || !isTimeValue(record.updated_at)) return undefined;
  if (!isAbsentOr(record.org_id, isUuidValue)) return undefined;
  if (!isAbsentOr(record.started_at, isTimeValue) || !isAbsentOr(record.completed_at, isTimeValue))
    return undefined;
  if (!METHOD_SET.has(record.method) || !isText(record.user_agent)) return undefined;
  if (
    !isOptionalString(record.email) ||
    !isOptionalString(record.endpoint) ||
    !isOptionalString(record.ip_address) ||
    !isOptionalString(record.origin) ||
    !isOptionalString(record.request_query_params) ||
    !isOptionalString(record.stripe_invoice_item_id)
  )
    return undefined;
  if (
    !isAbsentOr(record.duration, Number.isSafeInteger) ||
    !isAbsentOr(record.minutes, isInt32) ||
    !isAbsentOr(record.seconds, isInt32) ||
    !isAbsentOr(record.status_code, isInt32)
  )
    return undefined;
  const { price } = record;
  if (price === undefined || price === null) return { ...record } as ApiCallWithPrice;
  if (typeof price !== "number") return undefined;
  const text = canonicalPrice(price);
  return text === undefined ? undefined : ({ ...record, price: text } as ApiCallWithPrice);
}

function isUuidValue(value: unknown): boolean {
  return typeof value === "string" && isUuid(value);
}

function isTimeValue(value: unknown): boolean {
  return typeof value === "string" && isRfc3339DateTime(value);
}

function isText(value: unknown): boolean {
  return typeof value === "string" && isWellFormedText(value);
}

/** Absent, null, or well-formed text (the schema's `TextSchema.nullable().optional()`). */
function isOptionalString(value: unknown): boolean {
  return value === undefined || value === null || isText(value);
}

function isInt32(value: unknown): boolean {
  return Number.isInteger(value) && (value as number) >= INT32_MIN && (value as number) <= INT32_MAX;
}

/** Absent, null, or passing `check` (the schema's `.nullable().optional()`). */
function isAbsentOr(value: unknown, check: (value: unknown) => boolean): boolean {
  return value === undefined || value === null || check(value);
}
