import { z } from "zod";
import { MethodSchema } from "./enums.js";
import { DateTimeSchema, TextSchema, UuidSchema } from "./primitives.js";

// Already canonical: no leading zeros, no trailing fractional zeros. Most prices take this fast path.
const CANONICAL_DECIMAL = /^(?:0|[1-9]\d*)(?:\.\d*[1-9])?$/;
// A plain decimal, as in Zoo's docs examples ("30.11"), with an optional sign. Exponent strings are
// refused: they are not money text, and expanding "1e999999999" would build a gigabyte of zeros.
const PLAIN_DECIMAL = /^([+-]?)(\d+)(?:\.(\d+))?$/;
// What `String(n)` prints for a finite number: plain, or exponent form below 1e-6 and from 1e21.
const NUMBER_TEXT = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/;

/** Moves the decimal point by `exponent` and trims leading/trailing zeros; string work only, never a float. */
function canonicalDecimal(intDigits: string, fracDigits: string, exponent: number): string {
  const digits = intDigits + fracDigits;
  const point = intDigits.length + exponent;
  let whole: string;
  let fraction: string;
  if (point <= 0) {
    whole = "0";
    fraction = "0".repeat(-point) + digits;
  } else if (point >= digits.length) {
    whole = digits + "0".repeat(point - digits.length);
    fraction = "";
  } else {
    whole = digits.slice(0, point);
    fraction = digits.slice(point);
  }
  whole = whole.replace(/^0+(?=\d)/, "");
  fraction = fraction.replace(/0+$/, "");
  return fraction === "" ? whole : `${whole}.${fraction}`;
}

/** "-" before a non-zero magnitude; zero has no sign. */
function signed(negative: boolean, magnitude: string): string {
  return negative && magnitude !== "0" ? `-${magnitude}` : magnitude;
}

/**
 * The canonical decimal text of a price ("30.11", "-0.5", "0.30000000000000004"), or undefined when
 * the value is not a finite decimal at all. The spec types `price` as a double with no minimum, so a
 * negative price is a price (a refund or credit, say); src/transform/money.ts decides how it is stored.
 */
export function canonicalPrice(value: number | string): string | undefined {
  if (typeof value === "number") {
    // Number.isFinite also refuses NaN; -0 prints as "0". String(n) is the shortest text that reads
    // back as the same double: what the API's serialiser (serde_json, shortest round-trip) prints too.
    if (!Number.isFinite(value)) return undefined;
    const text = String(value);
    // Without an exponent, String(n) has no leading or trailing zeros to trim: already canonical.
    if (!text.includes("e")) return text;
    const match = NUMBER_TEXT.exec(text);
    if (!match) return undefined;
    const magnitude = canonicalDecimal(match[2] ?? "0", match[3] ?? "", Number(match[4] ?? 0));
    return signed(match[1] === "-", magnitude);
  }
  if (CANONICAL_DECIMAL.test(value)) return value;
  const match = PLAIN_DECIMAL.exec(value);
  return match ? signed(match[1] === "-", canonicalDecimal(match[2] ?? "0", match[3] ?? "", 0)) : undefined;
}

function describeValue(value: unknown): string {
  if (typeof value === "string")
    return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}...` : value);
  if (typeof value === "number") return String(value);
  return value === null ? "null" : typeof value;
}

function priceMessage(value: unknown): string {
  return `price must be a decimal number or string, got ${describeValue(value)}`;
}

/**
 * Normalises an ApiCallWithPrice `price` to canonical decimal text ("30.11", "0.0000001", "0"), or null.
 * The spec types it `number` (format money-usd) but Zoo's docs show decimal strings, so both are accepted;
 * the result is text so that no later stage does money arithmetic in binary floating point.
 * @throws TypeError when the value is neither null nor a decimal number or string.
 */
export function normalizePrice(value: unknown): string | null {
  if (value === null) return null;
  const text = typeof value === "number" || typeof value === "string" ? canonicalPrice(value) : undefined;
  if (text === undefined) throw new TypeError(priceMessage(value));
  return text;
}

/** A `money-usd` number (or decimal string) as canonical decimal text: never a float in arithmetic. */
export const PriceSchema = z
  .union([z.number(), z.string()], { error: (issue) => priceMessage(issue.input) })
  .transform((value, ctx) => {
    const text = canonicalPrice(value);
    if (text !== undefined) return text;
    ctx.issues.push({ code: "custom", message: priceMessage(value), input: value });
    return z.NEVER;
  });

/** The range of the spec's int32, which is also the INTEGER column's (sql/tables/api_calls.sql). */
export const INT32_MIN = -(2 ** 31);
export const INT32_MAX = 2 ** 31 - 1;
/** The range of the spec's int64, which is also the BIGINT column's. */
export const INT64_MIN = -(2n ** 63n);
export const INT64_MAX = 2n ** 63n - 1n;

/** An int32 field: a value beyond 32 bits cannot be stored in its INTEGER column. */
const Int32Schema = z
  .int({ error: "expected an integer (int32)" })
  .min(INT32_MIN, { error: "expected a 32-bit integer (int32): below -2147483648" })
  .max(INT32_MAX, { error: "expected a 32-bit integer (int32): above 2147483647" });

/**
 * An int64 field: a safe integer as a number, or a BigInt when its digits do not fit a double (the
 * client parses such a page again and keeps them exact: src/api/exactJson.ts).
 */
const Int64Schema = z.union([z.int(), z.bigint().min(INT64_MIN).max(INT64_MAX)], {
  error: "expected a 64-bit integer (int64)",
});

/**
 * One item of GET /user/api-calls (components.schemas.ApiCallWithPrice). Loose: fields this code does not
 * know (older or newer vintages, e.g. `request_body` before 2026) are kept, not stripped. Optional fields
 * stay absent rather than defaulting; the spec's `nullable` is mirrored exactly. Validated ~1M times per
 * run, so only `price` transforms.
 */
export const ApiCallWithPriceSchema = z.looseObject({
  completed_at: DateTimeSchema.nullable().optional(),
  created_at: DateTimeSchema,
  // int64, format "duration"; the unit is not documented, so it is kept as the integer the API sent.
  duration: Int64Schema.nullable().optional(),
  // Format "email" and "ip" in the spec, but an odd value must not lose the record: any text. The
  // optional strings are not nullable in the spec, but a null is read as absent rather than losing
  // the call (and its price) from every cost view.
  email: TextSchema.nullable().optional(),
  endpoint: TextSchema.nullable().optional(),
  id: UuidSchema,
  ip_address: TextSchema.nullable().optional(),
  method: MethodSchema,
  // int32 in the spec, and INTEGER columns.
  minutes: Int32Schema.nullable().optional(),
  org_id: UuidSchema.nullable().optional(),
  origin: TextSchema.nullable().optional(),
  price: PriceSchema.nullable().optional(),
  request_query_params: TextSchema.nullable().optional(),
  seconds: Int32Schema.nullable().optional(),
  started_at: DateTimeSchema.nullable().optional(),
  status_code: Int32Schema.nullable().optional(),
  stripe_invoice_item_id: TextSchema.nullable().optional(),
  token: UuidSchema,
  updated_at: DateTimeSchema,
  user_agent: TextSchema,
  user_id: UuidSchema,
});
export type ApiCallWithPrice = z.infer<typeof ApiCallWithPriceSchema>;

/** components.schemas.ApiCallWithPriceResultsPage: `next_page` is null only on the final, empty page. */
export const ApiCallWithPriceResultsPageSchema = z.looseObject({
  items: z.array(ApiCallWithPriceSchema),
  next_page: z.string().nullable().optional(),
});
export type ApiCallWithPriceResultsPage = z.infer<typeof ApiCallWithPriceResultsPageSchema>;
