import { expect, test } from "vitest";
import { SecretBox } from "../../src/secrets/secretBox.js";
import { type CheckResult, checkApiCall, type TransformContext } from "../../src/transform/apiCallRow.js";
import { EndpointTemplater } from "../../src/transform/endpointTemplate.js";
import { DEFAULT_PRIVACY } from "../../src/transform/privacy.js";

/**
 * The bad-record catalogue of test/robustness/badInput.test.ts, at the validator: each broken record
 * is accepted (and parsed as expected) or rejected with a reason naming the field, in milliseconds.
 * The end-to-end test stays: it proves the same records reach the rejects table or the database.
 *
 * Policy rows: "negative price", "price finer than a micro-dollar" and "duration beyond 2^53". What
 * the validator does with them is a policy (reject, or keep and flag), not a fact of the data; their
 * expected outcomes are the POLICY table below, one line each.
 */
type Outcome = "loads" | RegExp;

const POLICY: Record<"negativePrice" | "subMicroPrice" | "hugeDuration", Outcome> = {
  negativePrice: "loads",
  subMicroPrice: "loads",
  hugeDuration: "loads",
};

const context: TransformContext = {
  templater: new EndpointTemplater(),
  secrets: new SecretBox(Buffer.alloc(32, 7)),
  privacy: DEFAULT_PRIVACY,
  maxPriceUsd: 1_000_000,
};

/** A record as the API sends it, every field present. */
const GOOD: Record<string, unknown> = {
  id: "0b6f3a52-9d1e-4c57-8a0e-5f2d6c7b8a91",
  user_id: "5c1e7d2a-3b4f-4a6e-9c8d-7e6f5a4b3c2d",
  org_id: "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d",
  token: "1f2e3d4c-5b6a-4798-8877-665544332211",
  method: "POST",
  endpoint: "/file/volume",
  status_code: 200,
  created_at: "2026-10-01T10:00:00.123456Z",
  started_at: "2026-10-01T10:00:00.200000Z",
  completed_at: "2026-10-01T10:00:01.700000Z",
  updated_at: "2026-10-01T10:05:00Z",
  duration: 1_500_000_000,
  minutes: 0,
  seconds: 2,
  price: 0.02,
  email: "someone@example.com",
  ip_address: "203.0.113.7",
  origin: "https://example.com",
  request_query_params: "output_unit=m3",
  stripe_invoice_item_id: "ii_123",
  user_agent: "catalogue-test/1",
};

type Item = Record<string, unknown>;

/** [what, the record as broken (from the good one), outcome, what a loaded record must look like]. */
const CATALOGUE: [string, (item: Item) => unknown, Outcome, ((call: Item) => void)?][] = [
  ['price "abc"', (item) => ({ ...item, price: "abc" }), /price must be a decimal number or string/],
  ["negative price", (item) => ({ ...item, price: -0.5 }), POLICY.negativePrice],
  ["absurd price", (item) => ({ ...item, price: 2_000_000_000 }), /above the per-call sanity limit/],
  ["price finer than a micro-dollar", (item) => ({ ...item, price: "0.0000001" }), POLICY.subMicroPrice],
  [
    "price as a string",
    (item) => ({ ...item, price: "12.34" }),
    "loads",
    (call) => expect(call.price).toBe("12.34"),
  ],
  ["price as a number", (item) => item, "loads", (call) => expect(call.price).toBe("0.02")],
  ["status_code as a string", (item) => ({ ...item, status_code: "200" }), /status_code/],
  ["invalid timestamp", (item) => ({ ...item, created_at: "2026-13-45T99:00:00Z" }), /created_at/],
  ["timestamp without zone", (item) => ({ ...item, updated_at: "2026-10-01T10:00:00" }), /updated_at/],
  ["missing user_id", ({ user_id, ...rest }) => rest, /user_id/],
  ["invalid uuid", (item) => ({ ...item, token: "12345" }), /token/],
  ["unknown method", (item) => ({ ...item, method: "BREW" }), /method/],
  ["method EXTENSION (the spec's catch-all)", (item) => ({ ...item, method: "EXTENSION" }), "loads"],
  [
    "a huge user agent",
    (item) => ({ ...item, user_agent: "x".repeat(200_000) }),
    "loads",
    (call) => expect(call.user_agent).toHaveLength(200_000),
  ],
  [
    "unknown fields",
    (item) => ({ ...item, response_body: { a: [1, 2] } }),
    "loads",
    (call) => expect(call.response_body).toEqual({ a: [1, 2] }),
  ],
  [
    "nanosecond timestamps",
    (item) => ({ ...item, created_at: "2026-10-01T10:00:00.123456789Z" }),
    "loads",
    (call) => expect(call.created_at).toBe("2026-10-01T10:00:00.123456789Z"),
  ],
  [
    "null optional fields",
    (item) => ({ ...item, org_id: null, duration: null, status_code: null, price: null }),
    "loads",
    (call) =>
      expect([call.org_id, call.duration, call.status_code, call.price]).toEqual([null, null, null, null]),
  ],
  // The client reads a duration beyond 2^53 from the page text as a BigInt (src/api/exactJson.ts).
  ["duration beyond 2^53", (item) => ({ ...item, duration: 2n ** 62n }), POLICY.hugeDuration],
  ["duration beyond 2^53 as a rounded double", (item) => ({ ...item, duration: 2 ** 62 }), /duration/],
  ["not an object", () => "just a string", /expected object/i],
  ["null", () => null, /expected object/i],
  ["an array", () => [GOOD], /expected object/i],
];

const ROWS = CATALOGUE.map(([what, breakIt, outcome, check]) => ({
  what,
  raw: breakIt({ ...GOOD }),
  outcome,
  check,
  expected: outcome === "loads" ? "loads" : "is rejected",
}));

test.each(ROWS)("$what: $expected", ({ raw, outcome, check }) => {
  const result: CheckResult = checkApiCall(raw, context);
  if (outcome === "loads") {
    expect(result.ok, result.ok ? "" : result.reason).toBe(true);
    if (result.ok) check?.(result.call as Item);
    return;
  }
  expect(result.ok).toBe(false);
  if (result.ok) return;
  expect(result.reason).toMatch(outcome);
  // A rejected record keeps its id when it has a readable one, so the rejects table can name it.
  const id = typeof raw === "object" && raw !== null && !Array.isArray(raw) ? (raw as Item).id : undefined;
  expect(result.recordId).toBe(id ?? null);
});
