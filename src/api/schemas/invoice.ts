import { z } from "zod";
import { JsonNumberText } from "../exactJson.js";
import { DateTimeSchema, TextSchema } from "./primitives.js";

/** A JSON number's text, or a plain decimal string (Zoo's docs print money as "30.11"). */
const NUMBER_TEXT = /^([+-]?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;

/**
 * The canonical decimal text of a money value ("12.3", "-0.5", "0"), by string work only: the
 * number's own digits as the server wrote them, the point moved by the exponent. Whether it fits a
 * DECIMAL(18,6) column (rounded to the micro-dollar when it has more decimals) is the transform's
 * decision (src/transform/money.ts); only what is not a decimal number is a problem here.
 */
export function moneyText(text: string): { decimal: string } | { problem: string } {
  const match = NUMBER_TEXT.exec(text);
  if (match === null)
    return { problem: `expected a decimal number, got ${JSON.stringify(text.slice(0, 40))}` };
  const [, sign = "", intDigits = "0", fracDigits = "", rawExponent = "0"] = match;
  const exponent = Number(rawExponent);
  if (!(Math.abs(exponent) <= 40))
    return { problem: `${text} is not a money amount (exponent out of range)` };
  const digits = intDigits + fracDigits;
  const point = intDigits.length + exponent;
  const whole = (point <= 0 ? "0" : digits.slice(0, point).padEnd(point, "0")).replace(/^0+(?=\d)/, "");
  const fraction = (point <= 0 ? "0".repeat(-point) + digits : digits.slice(point)).replace(/0+$/, "");
  const magnitude = fraction === "" ? whole : `${whole}.${fraction}`;
  return { decimal: sign === "-" && magnitude !== "0" ? `-${magnitude}` : magnitude };
}

/**
 * A `money-usd` field (spec: type number, format money-usd, default 0): a JsonNumberText from the
 * exact reader, or a decimal string, as exact decimal text. Never a double: `0.1 + 0.2` is
 * not money.
 */
export const MoneySchema = z
  .union([z.instanceof(JsonNumberText), z.string()], {
    error: (issue) => `expected a money amount (a decimal number), got ${describe(issue.input)}`,
  })
  .transform((value, ctx) => {
    const result = moneyText(typeof value === "string" ? value : value.text);
    if ("decimal" in result) return result.decimal;
    ctx.issues.push({ code: "custom", message: result.problem, input: value });
    return z.NEVER;
  });

/** The spec's uint64 `attempt_count`, kept below 2^53 (a retry count is never near it). */
const CountSchema = z.union([z.instanceof(JsonNumberText), z.number()]).transform((value, ctx) => {
  const text = typeof value === "number" ? String(value) : value.text;
  const count = /^\d{1,15}$/.test(text) ? Number(text) : undefined;
  if (count !== undefined) return count;
  ctx.issues.push({ code: "custom", message: `expected a non-negative integer, got ${text}`, input: value });
  return z.NEVER;
});

function describe(value: unknown): string {
  if (value === null) return "null";
  if (typeof value === "string") return JSON.stringify(value.slice(0, 40));
  return typeof value;
}

/** The spec's `metadata`: string values by key, default {}. */
const MetadataSchema = z.record(z.string(), TextSchema);

/**
 * InvoiceLineItem (spec): every field optional; `amount` defaults to 0, `currency` to "USD",
 * `metadata` to {}. The defaults are applied here, so a stored line says what the spec says an
 * absent field means.
 */
export const InvoiceLineItemSchema = z.looseObject({
  id: TextSchema.optional(),
  amount: MoneySchema.default("0"),
  currency: TextSchema.default("USD"),
  description: TextSchema.optional(),
  invoice_item: TextSchema.optional(),
  metadata: MetadataSchema.default({}),
});
export type InvoiceLineItem = z.infer<typeof InvoiceLineItemSchema>;

/** InvoiceStatus (spec: draft, open, paid, uncollectible, void, unknown). */
export const InvoiceStatusSchema = z.enum(["draft", "open", "paid", "uncollectible", "void", "unknown"]);

/**
 * Invoice (spec): only `created_at` is required. Fields with a spec default take it when absent
 * (money 0, attempt_count 0, attempted/paid false, currency "USD", metadata {}); the nullable ones
 * (billing_reason, collection_method, pdf, refund_status, status, subscription_id, url) stay null
 * or absent; `discounts` (Discount objects) is kept as the API sent it. Unknown fields pass
 * through: the row keeps them in `extra`.
 */
export const InvoiceSchema = z.looseObject({
  id: TextSchema.optional(),
  number: TextSchema.optional(),
  status: InvoiceStatusSchema.nullable().optional(),
  created_at: DateTimeSchema,
  currency: TextSchema.default("USD"),
  amount_due: MoneySchema.default("0"),
  amount_paid: MoneySchema.default("0"),
  amount_refunded: MoneySchema.default("0"),
  amount_remaining: MoneySchema.default("0"),
  subtotal: MoneySchema.default("0"),
  tax: MoneySchema.default("0"),
  total: MoneySchema.default("0"),
  attempt_count: CountSchema.default(0),
  attempted: z.boolean().default(false),
  paid: z.boolean().default(false),
  billing_reason: TextSchema.nullable().optional(),
  collection_method: TextSchema.nullable().optional(),
  customer_email: TextSchema.optional(),
  customer_id: TextSchema.optional(),
  default_payment_method: TextSchema.optional(),
  description: TextSchema.optional(),
  discounts: z.array(z.unknown()).optional(),
  lines: z.array(InvoiceLineItemSchema).default([]),
  metadata: MetadataSchema.default({}),
  pdf: TextSchema.nullable().optional(),
  receipt_number: TextSchema.optional(),
  refund_status: z.enum(["partially_refunded", "refunded"]).nullable().optional(),
  statement_descriptor: TextSchema.optional(),
  subscription_id: TextSchema.nullable().optional(),
  url: TextSchema.nullable().optional(),
});
export type Invoice = z.infer<typeof InvoiceSchema>;

/** The fields InvoiceSchema knows; any other goes to the row's `extra`. */
export const INVOICE_FIELDS: ReadonlySet<string> = new Set(Object.keys(InvoiceSchema.shape));
export const INVOICE_LINE_FIELDS: ReadonlySet<string> = new Set(Object.keys(InvoiceLineItemSchema.shape));
