import fc from "fast-check";
import { METHODS } from "../../src/api/schemas/enums.js";

// Values for generative tests (fast-check): ApiCallWithPrice fields at their edges, each with
// whether the exporter must accept it.

/** A drawn field value, and whether the exporter must accept it (`ok`). ABSENT leaves the field out. */
export interface Drawn {
  value: unknown;
  ok: boolean;
}
export const ABSENT = Symbol("absent");
export const ok = (value: unknown): Drawn => ({ value, ok: true });
export const bad = (value: unknown): Drawn => ({ value, ok: false });

export const INT32_MIN = -(2 ** 31);
export const INT32_MAX = 2 ** 31 - 1;
export const INT64_MIN = -(2n ** 63n);
export const INT64_MAX = 2n ** 63n - 1n;
export const LONE_SURROGATE = /\p{Cs}/u;

export const int32: fc.Arbitrary<Drawn> = fc.oneof(
  fc.constantFrom(INT32_MIN, INT32_MAX, 0, -1, 200).map(ok),
  fc.integer().map(ok),
  fc.constantFrom(INT32_MAX + 1, INT32_MIN - 1, 2 ** 53 - 1).map(bad),
  fc.constantFrom(null, ABSENT).map(ok),
);

/** Durations as BigInt: the page text carries their exact digits (pageText). */
export const int64: fc.Arbitrary<Drawn> = fc.oneof(
  fc.constantFrom(INT64_MIN, INT64_MAX, 2n ** 53n + 1n, -(2n ** 53n) - 1n, 0n, 1_500_000_000n).map(ok),
  fc.bigInt({ min: INT64_MIN, max: INT64_MAX }).map(ok),
  fc.constantFrom(INT64_MAX + 1n, INT64_MIN - 1n).map(bad),
  fc.constantFrom(null, ABSENT).map(ok),
);

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

/** Date-times at the calendar's edges, valid or not, in the forms RFC 3339 allows. */
export const dateTime: fc.Arbitrary<Drawn> = fc.oneof(
  fc
    .record({
      year: fc.constantFrom(1, 999, 1000, 1900, 1999, 2000, 2023, 2024, 2026, 9998, 9999),
      month: fc.oneof(fc.constantFrom(1, 2, 12), fc.integer({ min: 1, max: 12 })),
      day: fc.constantFrom(1, 28, 29, 30, 31),
      form: fc.constantFrom("Z", "z", ".123456789Z", "+23:59", "-05:30", ".5-00:00", "-00:01"),
      lowerT: fc.boolean(),
    })
    .map(({ year, month, day, form, lowerT }) => {
      const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
      const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] ?? 0;
      const text = `${pad(year, 4)}-${pad(month)}-${pad(day)}${lowerT ? "t" : "T"}23:59:59${form}`;
      // UTC years 1000-9999 (primitives.ts): these offsets move 1000-01-01 and 9999-12-31 out.
      const instant = Date.parse(text.toUpperCase());
      const inRange = instant >= Date.UTC(1000, 0, 1) && instant < Date.UTC(10000, 0, 1);
      return { value: text, ok: day <= days && inRange };
    }),
  fc
    .date({
      min: new Date("1970-01-01T00:00:00Z"),
      max: new Date("2100-01-01T00:00:00Z"),
      noInvalidDate: true,
    })
    .map((date) => ok(date.toISOString())),
  fc.constantFrom("2026-13-01T00:00:00Z", "2026-01-01T24:00:00Z", "2026-01-01T00:00:00", "").map(bad),
);

/**
 * Any code point, lone surrogates included: what fast-check's "binary" unit draws, without the map
 * back from each of the 1,114,112 code points that the unit builds for shrinking when a string
 * arbitrary is made (about a second of CPU in every test worker).
 */
const anyCodePoint = fc
  .integer({ min: 0, max: 0x10ffff })
  .map((codePoint) => String.fromCodePoint(codePoint));

/** Text with what JSON, UTF-8 and DuckDB treat specially; a lone surrogate cannot be stored. */
export const text: fc.Arbitrary<Drawn> = fc
  .oneof(
    fc.string({ unit: anyCodePoint, maxLength: 12 }),
    fc.string({
      unit: fc.constantFrom(
        "a",
        "\u0000",
        "\u001f",
        "\u2028",
        "😀",
        "\ud800",
        "\udfff",
        "é",
        '"',
        "\\",
        "\n",
      ),
      maxLength: 8,
    }),
  )
  .map((value) => ({ value, ok: !LONE_SURROGATE.test(value) }));

export const optionalText: fc.Arbitrary<Drawn> = fc.oneof(text, fc.constantFrom(null, ABSENT).map(ok));

/** Prices as the API may print them: doubles of any size and sign, decimal text, nonsense. */
export const price: fc.Arbitrary<Drawn> = fc.oneof(
  fc.double({ noNaN: true }).map((n) => ({ value: n, ok: Number.isFinite(n) && Math.abs(n) < 999_999 })),
  fc.constantFrom(0.1 + 0.2, -0.5, 5e-7, 1e-7, -0, 999_999.999_999_5, 0.000_000_5).map(ok),
  fc
    .tuple(fc.constantFrom("", "-", "+"), fc.stringMatching(/^\d{1,8}$/), fc.stringMatching(/^\d{0,10}$/))
    .map(([sign, whole, fraction]) => {
      const decimal = `${sign}${whole}${fraction === "" ? "" : `.${fraction}`}`;
      return { value: decimal, ok: Math.abs(Number(decimal)) < 999_999 };
    }),
  fc.constantFrom("abc", "1e5", "", "1.", "NaN", "1234567890123.5").map(bad),
  fc.constantFrom(null, ABSENT).map(ok),
);

/** Unknown fields, some named like Object.prototype's members. */
export const unknownFields: fc.Arbitrary<[string, unknown][]> = fc.uniqueArray(
  fc.tuple(
    fc.constantFrom("__proto__", "constructor", "toString", "request_body", "brand_new"),
    fc.jsonValue({ maxDepth: 2 }),
  ),
  { maxLength: 2, selector: ([key]) => key },
);

export const method: fc.Arbitrary<Drawn> = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom(...METHODS).map(ok) },
  fc.constantFrom("BREW", "get").map(bad),
);
