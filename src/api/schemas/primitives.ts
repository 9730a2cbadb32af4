import { z } from "zod";

/**
 * The spec's `Uuid` (components.schemas.Uuid: string, format uuid). Deliberately only the RFC 4122 shape:
 * zod 4's `z.uuid()` also checks the version and variant bits, and real Zoo ids are v4 or v7 (v7 is newer
 * than some validators), so a strict check would reject good records.
 */
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** True when `text` has the shape UuidSchema accepts. */
export function isUuid(text: string): boolean {
  return UUID_PATTERN.test(text);
}

export const UuidSchema = z
  .string()
  .regex(UUID_PATTERN, { error: "expected a UUID (8-4-4-4-12 hex digits)" });

/**
 * RFC 3339 `date-time` (the spec's `format: date-time`): a full date and time with a zone (Z or +hh:mm).
 * Fractions go up to 9 digits because the server (Rust, chrono) prints nanoseconds. The field ranges
 * (month 01-12, hour 00-23, second 00-59) are what make every match readable by `Date.parse`, which the
 * loader uses: V8 rejects second 60 and rolls hour 24 over, and a matched string never has either.
 * test/api/schemas.test.ts checks that promise on the edge cases.
 */
const RFC3339_PATTERN =
  /^\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])[Tt](?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d(?:\.\d{1,9})?(?:[Zz]|[+-](?:[01]\d|2[0-3]):[0-5]\d)$/;

const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * The instants a date-time may name: UTC years 1000 to 9999. An instant in year 10000 UTC
 * (`9999-12-31T23:59:59-05:00`) has no four-digit RFC 3339 UTC form, its partition name "10000-01"
 * sorts before "9999-12", and many Parquet readers (Python's datetime) end at year 9999. Below 1000,
 * partition names and readers meet the same trouble at the other end. Zoo's times are 21st-century:
 * anything this far out is not a real time, and a far-future one that passes is bounded by the run's
 * clock (src/sources/calls/futureCalls.ts).
 */
const EARLIEST_MS = Date.UTC(1000, 0, 1);
const LATEST_MS = Date.UTC(10000, 0, 1);
/** Texts between these (as strings) are years 1001-9998: inside the range whatever their offset. */
const EDGE_LOW = "1001";
const EDGE_HIGH = "9999";

/**
 * True when `text` is an RFC 3339 date-time with a zone, in the ranges `Date.parse` reads, on a day
 * that exists: the pattern lets day 31 through for every month, and V8 rolls "02-30" over into March
 * while DuckDB's TIMESTAMPTZ refuses it ("timestamp field value out of range"), which would fail the
 * whole batch. Only days past the 28th need the calendar.
 */
export function isRfc3339DateTime(text: string): boolean {
  if (!RFC3339_PATTERN.test(text)) return false;
  // Only a year at the edge of the range needs the instant (Date.parse per value is costly).
  if (text < EDGE_LOW || text >= EDGE_HIGH) {
    const instant = Date.parse(text);
    if (!(instant >= EARLIEST_MS && instant < LATEST_MS)) return false;
  }
  const day = (text.charCodeAt(8) - 48) * 10 + (text.charCodeAt(9) - 48);
  if (day <= 28) return true;
  const month = (text.charCodeAt(5) - 48) * 10 + (text.charCodeAt(6) - 48);
  if (month !== 2) return day <= (DAYS_IN_MONTH[month - 1] ?? 0);
  const year = Number(text.slice(0, 4));
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return day <= (leap ? 29 : 28);
}

/**
 * A UTF-16 code unit of a surrogate pair standing alone (JSON's "\ud800" escape decodes to one).
 * DuckDB's JSON reader refuses the whole file that holds one ("no low surrogate in string"), and
 * no UTF-8 text can hold it: such a string cannot be stored as it is.
 */
const LONE_SURROGATE = /\p{Cs}/u;

/** True when `text` is well-formed UTF-16 (no lone surrogate), so it has a UTF-8 form DuckDB stores. */
export function isWellFormedText(text: string): boolean {
  return !LONE_SURROGATE.test(text);
}

/** The spec's `string`, restricted to what a VARCHAR can hold: well-formed Unicode text. */
export const TextSchema = z.string().refine(isWellFormedText, {
  error: "string holds a lone UTF-16 surrogate (an unpaired \\ud800-\\udfff escape): not valid Unicode text",
});

/**
 * Kept as the original string: the loader converts it, and the string keeps sub-millisecond digits that a
 * `Date` would drop. A pattern only, no `Date.parse` per value: that call would cost more than the rest
 * of the check, on four date-times in every api-call record.
 */
export const DateTimeSchema = z.string().refine(isRfc3339DateTime, {
  error:
    "expected an RFC 3339 date-time with a zone on a real calendar day in UTC years 1000-9999, e.g. 2024-01-31T12:00:00Z",
});
