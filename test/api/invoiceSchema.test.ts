import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { JsonNumberText, parseWithNumberTexts } from "../../src/api/exactJson.js";
import { InvoiceLineItemSchema, InvoiceSchema, moneyText } from "../../src/api/schemas/index.js";

interface SpecSchema {
  properties: Record<string, { nullable?: boolean; default?: unknown }>;
  required?: string[];
}

const spec = JSON.parse(
  readFileSync(path.resolve(import.meta.dirname, "../../spec/zoo-openapi.json"), "utf8"),
) as {
  components: { schemas: Record<string, SpecSchema> };
};

describe("the invoice schemas follow the spec", () => {
  test.each([
    ["Invoice", InvoiceSchema],
    ["InvoiceLineItem", InvoiceLineItemSchema],
  ] as const)(
    "%s: the same fields, nullable where the spec says, required only where it says",
    (name, schema) => {
      const specSchema = spec.components.schemas[name];
      if (specSchema === undefined) throw new Error(`the spec has no ${name}`);
      expect(Object.keys(schema.shape).sort()).toEqual(Object.keys(specSchema.properties).sort());
      for (const [field, property] of Object.entries(specSchema.properties)) {
        const accepted = (
          schema.shape as Record<string, { safeParse(value: unknown): { success: boolean } }>
        )[field];
        expect([field, accepted?.safeParse(null).success]).toEqual([field, property.nullable === true]);
        const required = specSchema.required?.includes(field) ?? false;
        expect([field, accepted?.safeParse(undefined).success]).toEqual([field, !required]);
      }
    },
  );

  test("absent fields take the spec's defaults; money stays the digits sent", () => {
    const parsed = InvoiceSchema.parse(
      parseWithNumberTexts('{"created_at":"2026-11-01T00:00:00Z","total":900719925474.0993,"lines":[{}]}'),
    );
    expect(parsed).toMatchObject({
      amount_due: "0",
      // A double would hold 900719925474.0992.
      total: "900719925474.0993",
      currency: "USD",
      attempt_count: 0,
      attempted: false,
      paid: false,
      metadata: {},
      lines: [{ amount: "0", currency: "USD", metadata: {} }],
    });
  });

  test.each([
    ["12.30", "12.3"],
    ["1e-6", "0.000001"],
    ["1.5E+3", "1500"],
    ["-0", "0"],
    ["-0.50", "-0.5"],
    ["0007", "7"],
    ["999999999999.999999", "999999999999.999999"],
    // Beyond DECIMAL(18,6): the transform rounds or refuses it (test/transform/invoiceRow.test.ts).
    ["0.1234567", "0.1234567"],
    ["1000000000000", "1000000000000"],
  ])("money %s is %s", (sent, stored) => {
    expect(moneyText(sent)).toEqual({ decimal: stored });
    expect(InvoiceLineItemSchema.parse({ amount: new JsonNumberText(sent) }).amount).toBe(stored);
  });

  test.each([
    ["1e400", "exponent out of range"],
    ["twelve", "expected a decimal number"],
  ])("money %s is refused: %s", (sent, problem) => {
    const result = moneyText(sent);
    expect("problem" in result && result.problem).toContain(problem);
    expect(InvoiceLineItemSchema.safeParse({ amount: new JsonNumberText(sent) }).success).toBe(false);
  });

  test("a double is not money: only the exact reader's text or a decimal string", () => {
    expect(InvoiceLineItemSchema.safeParse({ amount: 0.1 }).success).toBe(false);
    expect(InvoiceLineItemSchema.parse({ amount: "0.10" }).amount).toBe("0.1");
  });
});
