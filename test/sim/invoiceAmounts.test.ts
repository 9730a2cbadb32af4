import { describe, expect, test } from "vitest";
import { centsDown, centsHalfUp } from "../../src/sim/centRounding.js";
import {
  balanceApplied,
  chargeLines,
  type LineDraft,
  PLAIN_SETTLEMENT,
  settle,
} from "../../src/sim/invoiceAmounts.js";
import { type InvoiceShape, USD } from "../../src/sim/invoiceShape.js";

const EUR = { code: "eur", perHundred: 92 };

describe("rounding to the cent", () => {
  test.each([
    [0, 1, 1, 0],
    [4_999, 1, 1, 0],
    [5_000, 1, 1, 10_000],
    [-5_000, 1, 1, -10_000],
    [-4_999, 1, 1, 0],
    [325_540_000, 825, 10_000, 26_860_000],
    [325_540_000, 92, 100, 299_500_000],
    [264_950_000, 1, 4, 66_240_000],
    // 0.0025 of a refund of a cent's payment is less than half a cent.
    [10_000, 1, 4, 0],
    // Past 2^53 in the product: taken in bigint, exact.
    [6_000_000_000_123_457, 136, 100, 8_160_000_000_170_000],
  ])("%d x %d / %d half up is %d", (micros, numerator, denominator, expected) => {
    const rounded = centsHalfUp(micros, numerator, denominator);
    expect(rounded).toBe(expected);
    expect(Object.is(rounded, -0)).toBe(false);
  });

  test.each([
    [227_660_000, 113_830_000],
    [227_670_000, 113_830_000],
    [19_999, 0],
    [1_234_567, 610_000],
  ])("half of %d, down to the cent, is %d", (micros, expected) => {
    expect(centsDown(micros, 1, 2)).toBe(expected);
  });
});

const usage = (id: string, usdMicros: number, plantedUsdMicros = 0): LineDraft => ({
  id,
  invoiceItem: `ii_${id}`,
  description: "Zoo API usage, 2026-07",
  kind: "usage",
  usdMicros,
  plantedUsdMicros,
});
const shape = (part: Partial<InvoiceShape>) =>
  ({ currency: USD, tax: "none", discount: "none", ...part }) as const;

describe("an invoice's amounts", () => {
  test("the credits applied are at most what the discounted usage charges: no total below zero", () => {
    const credits: LineDraft = { ...usage("c", -10_000_000), kind: "credits", invoiceItem: "ii_c" };
    const { lines, charges } = chargeLines(
      [credits, usage("a", 10_000_000)],
      0,
      shape({ discount: "item-net", tax: "amount" }),
      "tax",
    );
    expect(lines.map((line) => line.amountMicros)).toEqual([-9_000_000, 9_000_000]);
    expect(charges).toEqual({
      subtotalMicros: 0,
      creditsDiscountMicros: 0,
      couponMicros: 0,
      taxMicros: 0,
      totalMicros: 0,
    });
    const discounted = chargeLines(
      [usage("a", 10_000_000)],
      10_000_000,
      shape({ discount: "item-gross" }),
      "tax",
    );
    expect(discounted.charges).toMatchObject({ subtotalMicros: 9_000_000, creditsDiscountMicros: 9_000_000 });
    expect(discounted.charges.totalMicros).toBe(0);
  });

  test("the coupon comes after the credits discount, the tax after both; no tax line of 0", () => {
    const { lines, charges } = chargeLines(
      [usage("a", 100_000_000)],
      40_000_000,
      shape({ discount: "coupon", tax: "line" }),
      "tax",
    );
    // 10% of 60 = 6; 8.25% of 54 = 4.455, 4.46.
    expect(charges).toEqual({
      subtotalMicros: 104_460_000,
      creditsDiscountMicros: 40_000_000,
      couponMicros: 6_000_000,
      taxMicros: 0,
      totalMicros: 58_460_000,
    });
    expect(lines[0]).toMatchObject({
      id: "tax",
      kind: "tax",
      amountMicros: 4_460_000,
      invoiceItem: undefined,
    });
    const untaxed = chargeLines([usage("a", 40_000_000)], 40_000_000, shape({ tax: "line" }), "tax");
    expect(untaxed.lines.map((line) => line.kind)).toEqual(["usage"]);
  });

  test("a line is converted on its own, discounted, then planted; sub-cent USD amounts stay exact", () => {
    const converted = chargeLines(
      [usage("a", 325_540_000, 1_230_000)],
      0,
      shape({ currency: EUR, discount: "item-net" }),
      "t",
    );
    // 325.54 -> 299.50 EUR, less 29.95, plus 1.23 USD = 1.1316 -> 1.13 EUR.
    expect(converted.lines[0]?.amountMicros).toBe(299_500_000 - 29_950_000 + 1_130_000);
    const exact = chargeLines([usage("a", 1_234_567)], 0, shape({ discount: "item-net" }), "t");
    expect(exact.lines[0]).toMatchObject({ amountMicros: 1_234_567 - 120_000, itemDiscountMicros: 120_000 });
  });

  test("settling: the balance covers at most the total, a paid invoice then pays what is left (maybe 0)", () => {
    expect(balanceApplied(USD, 3_000_000)).toBe(3_000_000);
    expect(balanceApplied(EUR, 30_000_000)).toBe(4_600_000);
    expect(settle(3_000_000, "paid", { ...PLAIN_SETTLEMENT, balanceMicros: 3_000_000 })).toEqual({
      dueMicros: 0,
      paidMicros: 0,
      remainingMicros: 0,
      refundedMicros: 0,
    });
    expect(settle(227_670_000, "open", { ...PLAIN_SETTLEMENT, halfPaid: true })).toEqual({
      dueMicros: 227_670_000,
      paidMicros: 113_830_000,
      remainingMicros: 113_840_000,
      refundedMicros: 0,
    });
    expect(settle(10_000_000, "void", { ...PLAIN_SETTLEMENT, halfPaid: true })).toMatchObject({
      paidMicros: 0,
      remainingMicros: 0,
    });
    expect(settle(10_000_000, "draft", { ...PLAIN_SETTLEMENT, halfPaid: true })).toMatchObject({
      paidMicros: 0,
      remainingMicros: 10_000_000,
    });
  });
});
