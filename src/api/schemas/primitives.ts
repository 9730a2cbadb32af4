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

/** True when `text` is an RFC 3339 date-time with a zone, in the ranges `Date.parse` reads. */
export function isRfc3339DateTime(text: string): boolean {
  return RFC3339_PATTERN.test(text);
}

/**
 * Kept as the original string: the loader converts it, and the string keeps sub-millisecond digits that a
 * `Date` would drop. A pattern only, no `Date.parse` per value: that call alone tripled the cost of the
 * four date-times in each of ~1M api-call records.
 */
export const DateTimeSchema = z.string().regex(RFC3339_PATTERN, {
  error: "expected an RFC 3339 date-time with a zone, e.g. 2024-01-31T12:00:00Z",
});
