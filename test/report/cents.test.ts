import { expect, test } from "vitest";
import { cents, isZero, signedCents } from "../../src/report/cents.js";

test.each([
  ["1234567.125", "1,234,567.12"],
  ["1234567.135", "1,234,567.14"],
  ["1234567.125001", "1,234,567.13"],
  ["1234567.124999", "1,234,567.12"],
  ["0.015", "0.02"],
  ["-0.025", "-0.02"],
  ["0.005", "<0.01"],
  ["-0.005", "-<0.01"],
  ["0.004999", "<0.01"],
  ["-0.000001", "-<0.01"],
  ["0.000000", "0.00"],
  ["-2", "-2.00"],
  ["20.000000", "20.00"],
  ["99999999999999999999.995", "100,000,000,000,000,000,000.00"],
])("cents(%s) = %s: half to even, a non-zero amount never reads as zero", (decimal, shown) => {
  expect(cents(decimal)).toBe(shown);
});

test("signed cents show the sign of a difference, zero unsigned; isZero reads any zero", () => {
  expect([
    signedCents("1.23"),
    signedCents("-1.23"),
    signedCents("0.000000"),
    signedCents("0.000001"),
  ]).toEqual(["+1.23", "-1.23", "0.00", "+<0.01"]);
  expect(["0", "0.000000", "-0.0", "0.000001", "10"].map(isZero)).toEqual([true, true, true, false, false]);
});
