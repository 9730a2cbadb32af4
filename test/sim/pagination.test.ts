import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  createDataset,
  encodePageToken,
  type RunningSimulator,
  startSimulator,
} from "../../src/sim/index.js";
import { compareKey, type ErrorBody, get, listPage, must, type Page, scan } from "./helpers.js";

const OPTIONS = { seed: 7, calls: 3000, users: 3 };
let sim: RunningSimulator;
let token: string;
let expectedIds: string[];

beforeAll(async () => {
  sim = await startSimulator(OPTIONS);
  token = sim.users[0]?.token ?? "";
  const dataset = createDataset(OPTIONS);
  expectedIds = [...dataset.visibleCallsForUser(0, dataset.initialNow)].map((c) => c.id);
});
afterAll(async () => {
  await sim.close();
});

describe("GET /user/api-calls scans (Dropshot keyset pagination)", () => {
  test.each([20, 100, 1000, 10_000])(
    "ascending at limit %i sees every visible call once, in order",
    async (limit) => {
      const { items, requests } = await scan(sim, token, { limit, order: "created_at_ascending" });
      expect(items.map((i) => i.id)).toEqual(expectedIds);
      for (let k = 1; k < items.length; k++)
        expect(compareKey(must(items[k - 1]), must(items[k]))).toBeLessThan(0);
      // Dropshot's paging: N items at limit L cost ceil(N/L) + 1 requests (the last page is empty).
      expect(requests).toBe(Math.ceil(expectedIds.length / limit) + 1);
    },
  );

  test("descending scan is the exact reverse", async () => {
    const { items, requests } = await scan(sim, token, { limit: 250, order: "created_at_descending" });
    expect(items.map((i) => i.id)).toEqual([...expectedIds].reverse());
    expect(requests).toBe(Math.ceil(expectedIds.length / 250) + 1);
  });

  test("limit 1 on a small dataset still ends with an empty page", async () => {
    const small = await startSimulator({ seed: 3, calls: 40, users: 2 });
    try {
      const dataset = createDataset({ seed: 3, calls: 40, users: 2 });
      const expected = [...dataset.visibleCallsForUser(1, dataset.initialNow)].map((c) => c.id);
      const { items, requests } = await scan(small, must(small.users[1]).token, { limit: 1 });
      expect(items.map((i) => i.id)).toEqual(expected);
      expect(requests).toBe(expected.length + 1);
    } finally {
      await small.close();
    }
  });

  test("next_page is set on a short last page; only an empty page has next_page null", async () => {
    const first = await listPage(sim, token, `limit=${expectedIds.length - 1}&sort_by=created_at_ascending`);
    expect(first.items).toHaveLength(expectedIds.length - 1);
    const short = await listPage(sim, token, `limit=10&page_token=${first.next_page}`);
    expect(short.items).toHaveLength(1);
    expect(short.next_page).not.toBeNull();
    const end = await listPage(sim, token, `limit=10&page_token=${short.next_page}`);
    expect(end).toEqual({ items: [], next_page: null });
  });

  test("absent sort_by is newest first", async () => {
    const page = await listPage(sim, token, "limit=5");
    expect(page.items.map((i) => i.id)).toEqual([...expectedIds].reverse().slice(0, 5));
  });
});

describe("query parameters", () => {
  test("absent limit is 100", async () => {
    expect((await listPage(sim, token, "sort_by=created_at_ascending")).items).toHaveLength(100);
  });

  test("limit above 10000 is clamped to 10000", async () => {
    const big = await startSimulator({ seed: 11, calls: 25_000, users: 1 });
    try {
      const page = await listPage(big, must(big.users[0]).token, "limit=20000");
      expect(page.items).toHaveLength(10_000);
    } finally {
      await big.close();
    }
  });

  test.each([
    ["limit=0", "unable to parse query string: expected a non-zero value"],
    ["limit=ten", "unable to parse query string: invalid digit found in string"],
    ["limit=-1", "unable to parse query string: invalid digit found in string"],
    ["limit=99999999999", "unable to parse query string: number too large to fit in target type"],
    ["sort_by=newest", "unable to parse query string: unknown variant `newest`"],
  ])("%s is a 400", async (query, message) => {
    const response = await get<ErrorBody>(sim, `/user/api-calls?${query}`, token);
    expect(response.status).toBe(400);
    expect(response.body.message.startsWith(message)).toBe(true);
    expect(response.body.request_id).toBe(response.headers.get("x-request-id"));
    expect("error_code" in response.body).toBe(false);
  });

  const b64 = (text: string) =>
    Buffer.from(text).toString("base64").replaceAll("+", "-").replaceAll("/", "_");
  const validStart = {
    sort_by: "created_at_ascending",
    created_at: "2026-09-01T00:00:00.000000Z",
    id: "00000000-0000-4000-8000-000000000000",
  };
  test.each([
    ["not base64", "a*b"],
    ["6-bit remainder", "q"],
    ["missing padding", b64(JSON.stringify({ v: "v1", page_start: validStart })).replace(/=+$/, "")],
    ["not JSON", b64("hello world")],
    ["wrong version", b64(JSON.stringify({ v: "v2", page_start: validStart }))],
    ["missing page_start", b64(JSON.stringify({ v: "v1" }))],
    ["missing id", b64(JSON.stringify({ v: "v1", page_start: { ...validStart, id: undefined } }))],
    ["unknown sort mode", b64(JSON.stringify({ v: "v1", page_start: { ...validStart, sort_by: "price" } }))],
    ["too large", "A".repeat(600)],
    ["empty", ""],
  ])("a malformed token (%s) is a 400 with Dropshot's prefix", async (_name, bad) => {
    const response = await get<ErrorBody>(
      sim,
      `/user/api-calls?page_token=${encodeURIComponent(bad)}`,
      token,
    );
    expect(response.status).toBe(400);
    expect(response.body.message).toMatch(
      /^unable to parse query string: failed to parse pagination token: \S/,
    );
  });

  test("a well-formed token we did not issue works (tokens are stateless keys)", async () => {
    const page = await listPage(
      sim,
      token,
      `page_token=${encodePageToken("created_at_ascending", validStart.created_at, validStart.id)}&limit=3`,
    );
    expect(page.items).toHaveLength(3);
    expect(must(page.items[0]).created_at > validStart.created_at).toBe(true);
  });

  test("repeated parameters: the last value wins", async () => {
    const page = await listPage(
      sim,
      token,
      "limit=500&limit=3&sort_by=created_at_descending&sort_by=created_at_ascending",
    );
    expect(page.items.map((i) => i.id)).toEqual(expectedIds.slice(0, 3));
  });

  test("sort_by is ignored when a page_token is given, even an invalid one", async () => {
    const first = await listPage(sim, token, "limit=4&sort_by=created_at_ascending");
    for (const sort of ["created_at_descending", "bogus"]) {
      const next = await listPage(sim, token, `limit=4&sort_by=${sort}&page_token=${first.next_page}`);
      expect(next.items.map((i) => i.id)).toEqual(expectedIds.slice(4, 8));
    }
  });

  test("limit may change from page to page", async () => {
    const seen: string[] = [];
    let page: Page = await listPage(sim, token, "limit=3&sort_by=created_at_ascending");
    for (const limit of [1, 50, 7, 1000]) {
      seen.push(...page.items.map((i) => i.id));
      page = await listPage(sim, token, `limit=${limit}&page_token=${page.next_page}`);
    }
    seen.push(...page.items.map((i) => i.id));
    expect(seen).toEqual(expectedIds.slice(0, 3 + 1 + 50 + 7 + 1000));
  });
});
