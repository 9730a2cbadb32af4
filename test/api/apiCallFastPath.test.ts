import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ApiCallWithPriceSchema } from "../../src/api/schemas/apiCall.js";
import { parseApiCallFast } from "../../src/api/schemas/apiCallFastPath.js";
import { type RunningSimulator, startSimulator } from "../../src/sim/index.js";

const UUID = "8500af67-03ba-4427-91fb-141a94787390";

const base: Record<string, unknown> = {
  id: UUID,
  user_id: "48f46e74-3130-4dfb-8717-d6dcdd0fb317",
  org_id: null,
  created_at: "2026-08-03T00:00:08.793098Z",
  updated_at: "2026-08-03T00:18:01.121320Z",
  started_at: "2026-08-03T00:00:08.835629Z",
  completed_at: null,
  duration: 278915000,
  email: "grace@example.net",
  endpoint: "/file/conversion/inventor/gltf",
  ip_address: "53.183.236.173",
  method: "POST",
  minutes: 1,
  seconds: null,
  origin: "https://zoo.dev",
  price: 0.059208,
  request_query_params: "",
  status_code: 201,
  stripe_invoice_item_id: "ii_1gSV480hiks84LXzW52GOvTy0",
  token: "dd7f5f94-06f4-4310-8e45-71989f8e4ea5",
  user_agent: "zoo-modeling-app/0.28.0",
};

/** Values of every kind the schema's fields take or refuse; each field is tried with each of them. */
const CANDIDATES: unknown[] = [
  undefined,
  null,
  "",
  "x",
  UUID,
  UUID.toUpperCase(),
  `${UUID}0`,
  "2026-08-03T00:00:08Z",
  "2026-08-03t00:00:08.123456789z",
  "2026-08-03T00:00:08+05:30",
  "2026-13-03T00:00:08Z",
  "2026-08-03T24:00:00Z",
  "2026-08-03 00:00:08Z",
  "POST",
  "post",
  "EXTENSION",
  "30.11",
  "1e5",
  0,
  -0,
  1,
  -1,
  1.5,
  0.1,
  1e-7,
  1e21,
  123456789012.12346,
  2 ** 53 - 1,
  2 ** 53,
  2 ** 31 - 1,
  2 ** 31,
  -(2 ** 31),
  -(2 ** 31) - 1,
  2n ** 63n - 1n,
  2n ** 63n,
  "a\ud800",
  "\udc00",
  "😀",
  "2024-02-29T00:00:00Z",
  "2023-02-29T00:00:00Z",
  "2026-04-31T00:00:00Z",
  "0999-12-31T00:00:00Z",
  "-0.5",
  true,
  {},
  [],
  [1],
];

function withField(record: Record<string, unknown>, field: string, value: unknown) {
  const copy = { ...record };
  if (value === undefined) delete copy[field];
  else copy[field] = value;
  return copy;
}

/** The fast path's promise: when it answers, zod accepts the record and returns an equal value. */
function expectAgreement(raw: unknown): boolean {
  const fast = parseApiCallFast(raw);
  if (fast === undefined) return false;
  const parsed = ApiCallWithPriceSchema.safeParse(raw);
  expect(
    parsed.success,
    JSON.stringify(raw, (_, v) => (typeof v === "bigint" ? String(v) : v)),
  ).toBe(true);
  expect(fast).toStrictEqual(parsed.data);
  return true;
}

describe("parseApiCallFast", () => {
  test("agrees with zod for every field set to every kind of value, and pairs of them", () => {
    const fields = [...Object.keys(ApiCallWithPriceSchema.shape), "request_body"];
    let answered = 0;
    let tried = 0;
    for (const field of fields) {
      for (const value of CANDIDATES) {
        const once = withField(base, field, value);
        tried += 1;
        if (expectAgreement(once)) answered += 1;
        for (const other of fields) {
          if (other === field) continue;
          for (const second of [undefined, null, "", 1.5, UUID]) {
            tried += 1;
            if (expectAgreement(withField(once, other, second))) answered += 1;
          }
        }
      }
    }
    // It must answer for the ordinary records, or it buys nothing; zod takes the rest.
    expect(answered).toBeGreaterThan(tried / 10);
    expect(answered).toBeLessThan(tried);
  });

  test("leaves to zod whatever is not an object", () => {
    for (const raw of [null, undefined, "x", 5, [], [base]]) expect(parseApiCallFast(raw)).toBeUndefined();
  });

  test("keeps unknown fields, as the loose schema does", () => {
    const fast = parseApiCallFast({ ...base, request_body: { a: 1 } });
    expect(fast).toMatchObject({ request_body: { a: 1 }, price: "0.059208" });
  });

  test("leaves prices sent as text to zod, which canonicalises them", () => {
    expect(parseApiCallFast({ ...base, price: "30.110" })).toBeUndefined();
    expect(ApiCallWithPriceSchema.parse({ ...base, price: "30.110" }).price).toBe("30.11");
  });

  test("prices in exponent form come out as plain decimals", () => {
    expect(parseApiCallFast({ ...base, price: 1e-7 })?.price).toBe("0.0000001");
    expect(expectAgreement({ ...base, price: 1e21 })).toBe(true);
  });
});

describe("parseApiCallFast on the simulator's records", () => {
  let sim: RunningSimulator;
  let items: unknown[];
  beforeAll(async () => {
    sim = await startSimulator({
      seed: 9,
      calls: 2000,
      days: 5,
      users: 1,
      // Sub-cent prices with many digits: the number parsing the fast path must agree with zod on.
      priceMode: "adversarial",
    });
    const url = new URL("/user/api-calls", sim.url);
    url.searchParams.set("limit", "5000");
    const response = await fetch(url, { headers: { authorization: `Bearer ${sim.users[0]?.token}` } });
    items = ((await response.json()) as { items: unknown[] }).items;
  });
  afterAll(() => sim.close());

  test("answers for every one, as zod would", () => {
    expect(items.length).toBeGreaterThan(1500);
    for (const item of items) expect(expectAgreement(item)).toBe(true);
  });
});
