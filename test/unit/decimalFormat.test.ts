import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { groupDecimal, roundDecimal } from "../../src/log/decimalFormat.js";

/** The rounding docs/money.md states, on the digits with BigInt: to `places`, half to even. */
function reference(decimal: string, places: number): string {
  const [, sign = "", integer = "", fraction = ""] = /^(-?)(\d+)(?:\.(\d*))?$/.exec(decimal) ?? [];
  const kept = BigInt(`${integer}${fraction.padEnd(places, "0").slice(0, places)}`);
  const rest = fraction.slice(places).replace(/0+$/, "");
  const first = rest.charAt(0);
  const half = rest === "5" ? 1 : first >= "5" ? 2 : 0;
  const up = half === 2 || (half === 1 && kept % 2n === 1n) ? 1n : 0n;
  const rounded = (kept + up).toString().padStart(places + 1, "0");
  const whole = rounded.slice(0, rounded.length - places).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  const text = places === 0 ? whole : `${whole}.${rounded.slice(-places)}`;
  return sign === "-" && /[1-9]/.test(rounded) ? `-${text}` : text;
}

describe("Intl.NumberFormat on decimal text is exact", () => {
  test.each([
    ["1234567890123.455", "1,234,567,890,123.46"],
    ["1234567890123.445", "1,234,567,890,123.44"],
    ["-1234567890123.455", "-1,234,567,890,123.46"],
    // 19 and 24 significant digits: a double would have lost the last ones.
    ["1.0049999999999999999", "1.00"],
    ["123456789012345678.125", "123,456,789,012,345,678.12"],
    ["99999999999999999999.995", "100,000,000,000,000,000,000.00"],
    ["0.005", "0.00"],
    ["-0.005", "0.00"],
    ["0.004999", "0.00"],
    ["-0.004999", "0.00"],
    ["2.675", "2.68"],
    ["1.005", "1.00"],
    ["-2", "-2.00"],
    ["0", "0.00"],
  ])("roundDecimal(%s, 2) = %s: half to even on the decimal digits", (decimal, shown) => {
    expect(roundDecimal(decimal, 2)).toBe(shown);
    expect(reference(decimal, 2)).toBe(shown);
  });

  test("any decimal of up to 30 integer and 12 fraction digits rounds as the BigInt reference does", () => {
    const digits = (min: number, max: number) =>
      fc.string({ unit: fc.constantFrom(..."0123456789"), minLength: min, maxLength: max });
    fc.assert(
      fc.property(
        fc.boolean(),
        digits(1, 30),
        digits(0, 12),
        fc.integer({ min: 0, max: 6 }),
        (negative, integer, fraction, places) => {
          const decimal = `${negative ? "-" : ""}${integer}${fraction === "" ? "" : `.${fraction}`}`;
          expect(roundDecimal(decimal, places)).toBe(reference(decimal, places));
        },
      ),
      { numRuns: 2000 },
    );
  });

  test("grouping keeps every digit and the sign, past 15 significant digits and past Intl's 100 places", () => {
    expect(groupDecimal("54207.687837")).toBe("54,207.687837");
    expect(groupDecimal("123456789012345678901234.123456")).toBe("123,456,789,012,345,678,901,234.123456");
    expect(groupDecimal("-1000")).toBe("-1,000");
    expect(groupDecimal("-0.000000")).toBe("-0.000000");
    expect(groupDecimal("0.000001")).toBe("0.000001");
    const long = `1234.${"9".repeat(120)}`;
    expect(groupDecimal(long)).toBe(`1,234.${"9".repeat(120)}`);
    expect(groupDecimal(`-${long}`)).toBe(`-1,234.${"9".repeat(120)}`);
  });

  test("text that is not a plain decimal is shown as it is", () => {
    for (const text of ["1e5", "abc", "1,000", " 1", "", "Infinity"]) {
      expect(roundDecimal(text, 2)).toBe(text);
      expect(groupDecimal(text)).toBe(text);
    }
  });
});
