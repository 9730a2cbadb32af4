import { describe, expect, test } from "vitest";
import { z } from "zod";
import {
  ApiCallWithPriceResultsPageSchema,
  ApiCallWithPriceSchema,
  ApiErrorBodySchema,
  type AsyncOperation,
  AsyncOperationSchema,
  isUnknownAsyncOperation,
  normalizePrice,
} from "../../src/api/schemas/index.js";

// A v7 id: zod's own z.uuid() would be the strict one; ours must take it.
const ID = "0198c2a4-5b1e-7c3d-8e2f-1a2b3c4d5e6f";
const USER = "6f1c5a2e-9b3d-4e7f-a1c2-3d4e5f6a7b8c";

const apiCall = {
  created_at: "2025-08-01T10:00:00.123456Z",
  id: ID,
  method: "POST",
  token: "3b9d2f4a-1c5e-4a7b-8d9e-0f1a2b3c4d5e",
  updated_at: "2025-08-01T10:00:05Z",
  user_agent: "kittycad.py/0.7",
  user_id: USER,
  price: 0.01,
  endpoint: "/file/conversion/step/obj",
};

const conversion = {
  type: "file_conversion",
  id: ID,
  user_id: USER,
  status: "completed",
  created_at: "2025-08-01T10:00:00Z",
  updated_at: "2025-08-01T10:00:07.5+02:00",
  completed_at: "2025-08-01T10:00:07Z",
  started_at: null,
  output_format: "stl",
  src_format: "step",
  output_format_options: {
    type: "stl",
    storage: "binary",
    units: "mm",
    selection: { type: "default_scene" },
    coords: { forward: { axis: "y", direction: "negative" }, up: { axis: "z", direction: "positive" } },
  },
  src_format_options: { type: "step", split_closed_faces: false },
  outputs: { "part.stl": "c29saWQ=" },
};

/** The first issue's path and message, for asserting on where a body was rejected. */
function firstIssue(schema: z.ZodType, body: unknown): { path: string; message: string } {
  const result = schema.safeParse(body);
  if (result.success) throw new Error("expected the body to be rejected");
  const issue = result.error.issues[0];
  return { path: issue?.path.join(".") ?? "", message: issue?.message ?? "" };
}

describe("normalizePrice", () => {
  test.each<[unknown, string | null]>([
    [0.01, "0.01"],
    ["30.11", "30.11"],
    [1e-7, "0.0000001"],
    [0, "0"],
    [-0, "0"],
    [123456.789, "123456.789"],
    [0.1 + 0.2, "0.30000000000000004"],
    [2.5e-5, "0.000025"],
    [1e21, "1000000000000000000000"],
    [1.5e22, "15000000000000000000000"],
    ["30.10", "30.1"],
    ["007.50", "7.5"],
    ["0.000", "0"],
    ["12345678901234567890.123456789", "12345678901234567890.123456789"],
    [-1, "-1"],
    ["-0.5", "-0.5"],
    ["-0.000", "0"],
    ["+2.50", "2.5"],
    [-1e-7, "-0.0000001"],
    [null, null],
  ])("%j -> %j", (input, expected) => {
    expect(normalizePrice(input)).toBe(expected);
  });

  test("the smallest double expands without exponent", () => {
    expect(normalizePrice(5e-324)).toBe(`0.${"0".repeat(323)}5`);
  });

  test.each<[unknown]>([
    ["abc"],
    ["--1"],
    [""],
    ["1e400"],
    ["1e-7"],
    ["NaN"],
    ["Infinity"],
    [Number.NaN],
    [Number.POSITIVE_INFINITY],
    [" 1"],
    ["1."],
    [".5"],
    [true],
    [undefined],
  ])("rejects %j", (input) => {
    expect(() => normalizePrice(input)).toThrow(/^price must be a decimal number or string, got /);
  });
});

describe("ApiCallWithPriceSchema", () => {
  test.each<[unknown, string | null | undefined]>([
    [0.01, "0.01"],
    ["30.11", "30.11"],
    [1e-7, "0.0000001"],
    [null, null],
    [undefined, undefined],
  ])("price %j parses to %j", (price, expected) => {
    expect(ApiCallWithPriceSchema.parse({ ...apiCall, price }).price).toBe(expected);
  });

  test.each<[unknown, string]>([
    ["abc", 'got "abc"'],
    ["-", 'got "-"'],
    [false, "got boolean"],
  ])("price %j is rejected at path price", (price, got) => {
    const issue = firstIssue(ApiCallWithPriceSchema, { ...apiCall, price });
    expect(issue.path).toBe("price");
    expect(issue.message).toBe(`price must be a decimal number or string, ${got}`);
  });

  test("keeps fields the spec no longer (or does not yet) list", () => {
    const parsed = ApiCallWithPriceSchema.parse({
      ...apiCall,
      request_body: "{}",
      billing_invoice_item_id: "ii_1",
    });
    expect(parsed).toMatchObject({ request_body: "{}", billing_invoice_item_id: "ii_1" });
  });

  test("an odd email or ip address does not lose the record", () => {
    expect(
      ApiCallWithPriceSchema.safeParse({ ...apiCall, email: "not an email", ip_address: "?" }).success,
    ).toBe(true);
  });

  test.each(["user_agent", "id", "created_at", "method"])("missing required %s is rejected", (field) => {
    const body: Record<string, unknown> = { ...apiCall };
    delete body[field];
    expect(firstIssue(ApiCallWithPriceSchema, body).path).toBe(field);
  });

  test.each<[string, unknown]>([
    ["method", "FETCH"],
    ["id", "not-a-uuid"],
    ["duration", 1.5],
    ["created_at", "2025-08-01T10:00:00"],
    ["created_at", "2025-13-01T10:00:00Z"],
    ["created_at", "2025-08-01T10:00:00.1234567890Z"],
    ["created_at", "2025-08-01T24:00:00Z"],
    ["created_at", "2016-12-31T23:59:60Z"],
    ["created_at", "2025-02-29T00:00:00Z"],
    ["created_at", "2024-02-30T00:00:00Z"],
    ["created_at", "2026-04-31T00:00:00Z"],
    ["created_at", "1900-02-29T00:00:00Z"],
    ["created_at", "0000-01-01T00:00:00Z"],
    ["created_at", "0999-12-31T23:59:59Z"],
    ["created_at", "1000-01-01T00:00:00+00:01"],
    ["created_at", "9999-12-31T23:59:59-05:00"],
    ["created_at", "9999-12-31T23:30:00-00:31"],
    ["status_code", 2 ** 31],
    ["minutes", -(2 ** 31) - 1],
    ["seconds", 2 ** 40],
    ["user_agent", "a\ud800b"],
    ["email", "\udc00"],
    ["updated_at", "2025-08-01 10:00:00Z"],
  ])("%s = %j is rejected at its path", (field, value) => {
    expect(firstIssue(ApiCallWithPriceSchema, { ...apiCall, [field]: value }).path).toBe(field);
  });

  // primitives.ts promises that every accepted date-time is readable by Date.parse (the loader's converter).
  test.each([
    "2025-08-01T10:00:00Z",
    "2025-08-01T10:00:00.123456789Z",
    "2025-08-01T10:00:00-05:30",
    "2025-08-01t10:00:00z",
    "2025-01-31T23:59:59+23:59",
    "2024-02-29T00:00:00Z",
    "2000-02-29T00:00:00Z",
    "1000-01-01T00:00:00Z",
    "9998-12-31T23:59:59.999999Z",
    "9999-12-31T23:59:59.999999Z",
    "9999-12-31T23:59:59+05:00",
  ])("accepts date-time %s, and Date.parse reads it", (created_at) => {
    expect(ApiCallWithPriceSchema.parse({ ...apiCall, created_at }).created_at).toBe(created_at);
    expect(Date.parse(created_at)).not.toBeNaN();
  });

  test("a results page reports the item index in the path", () => {
    const page = { items: [apiCall, { ...apiCall, method: "FETCH" }], next_page: "eyJ2IjoidjEifQ==" };
    expect(firstIssue(ApiCallWithPriceResultsPageSchema, page).path).toBe("items.1.method");
  });
});

describe("AsyncOperationSchema", () => {
  test("parses a known variant, keeping unknown fields at every level", () => {
    const body = {
      ...conversion,
      new_top_level: 1,
      output_format_options: { ...conversion.output_format_options, new_option: true },
    };
    const parsed = AsyncOperationSchema.parse(body);
    expect(parsed).toEqual(body);
    expect(isUnknownAsyncOperation(parsed)).toBe(false);
  });

  test("keeps an unknown operation type as raw JSON instead of failing", () => {
    const body = { type: "file_weight", id: ID, status: "queued", grams: 12, user_id: USER };
    const parsed: AsyncOperation = AsyncOperationSchema.parse(body);
    expect(parsed).toEqual({ kind: "unknown", type: "file_weight", id: ID, status: "queued", raw: body });
    // `kind` narrows the union at compile time too: `raw` is only reachable on the unknown branch.
    const raw = parsed.kind === "unknown" ? parsed.raw : undefined;
    expect(raw).toEqual(body);
  });

  test.each<[string, Record<string, unknown>, string]>([
    ["status", { status: "done" }, "status"],
    [
      "a nested option enum",
      { output_format_options: { ...conversion.output_format_options, units: "furlong" } },
      "output_format_options.units",
    ],
    [
      "a nested selection",
      { output_format_options: { ...conversion.output_format_options, selection: { type: "x" } } },
      "output_format_options.selection.type",
    ],
    ["the output format", { output_format: "dwg" }, "output_format"],
  ])("a known variant with a bad %s is rejected, naming the path", (_label, change, path) => {
    const result = AsyncOperationSchema.safeParse({ ...conversion, ...change });
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(result.error.issues[0]?.path.join(".")).toBe(path);
    expect(z.prettifyError(result.error)).toContain(`at ${path}`);
  });

  test.each(["src_format", "user_id", "created_at"])(
    "a known variant missing required %s is rejected",
    (field) => {
      const body: Record<string, unknown> = { ...conversion };
      delete body[field];
      expect(firstIssue(AsyncOperationSchema, body).path).toBe(field);
    },
  );

  test.each<[string, unknown]>([
    ["no type", { id: ID }],
    ["a non-string type", { type: 3 }],
    ["not an object", "file_conversion"],
  ])("a body with %s is rejected", (_label, body) => {
    expect(AsyncOperationSchema.safeParse(body).success).toBe(false);
  });
});

describe("ApiErrorBodySchema", () => {
  test("error_code is optional and extra fields are kept", () => {
    const body = { message: "Not found", request_id: "req-1", detail: "x" };
    expect(ApiErrorBodySchema.parse(body)).toEqual(body);
  });

  test("request_id is required", () => {
    expect(firstIssue(ApiErrorBodySchema, { message: "Not found" }).path).toBe("request_id");
  });
});
