import { afterAll, beforeAll, expect, test } from "vitest";
import { type RunningSimulator, startSimulator } from "../../src/sim/index.js";
import { listAllCalls } from "../helpers/apiTruth.js";
import { startCountingProxy } from "../helpers/countingProxy.js";
import { exportOnce, queryDb, tempWorkspace } from "../helpers/exportHarness.js";

let sim: RunningSimulator;
let token: string;
beforeAll(async () => {
  sim = await startSimulator({ seed: 61, calls: 1200, days: 10, users: 1 });
  token = sim.users[0]?.token ?? "";
});
afterAll(() => sim.close());

type Item = Record<string, unknown>;

/**
 * The catalogue: each broken record of the first page either loads correctly or is rejected with a
 * reason naming the field. [what, the record as broken (from a good one), outcome: a reason, or "loads"].
 */
const CATALOGUE: [string, (item: Item) => unknown, RegExp | "loads"][] = [
  ['price "abc"', (item) => ({ ...item, price: "abc" }), /price must be a decimal number or string/],
  ["negative price (loads, flagged)", (item) => ({ ...item, price: -0.5 }), "loads"],
  ["absurd price", (item) => ({ ...item, price: 2_000_000_000 }), /above the per-call sanity limit/],
  [
    "absurd negative price",
    (item) => ({ ...item, price: -2_000_000_000 }),
    /below the per-call sanity limit/,
  ],
  [
    "price beyond DECIMAL(18,6)",
    (item) => ({ ...item, price: "1234567890123.5" }),
    /more than 12 integer digits/,
  ],
  ["sub-micro-dollar price (loads, rounded)", (item) => ({ ...item, price: "0.0000005" }), "loads"],
  ["price as a string", (item) => ({ ...item, price: "12.34" }), "loads"],
  ["status_code beyond int32", (item) => ({ ...item, status_code: 2 ** 31 }), /status_code/],
  [
    "a day that does not exist",
    (item) => ({ ...item, completed_at: "2026-02-30T00:00:00Z" }),
    /completed_at/,
  ],
  ["a lone surrogate", (item) => ({ ...item, user_agent: "bad \ud800 agent" }), /user_agent/],
  ["null optional strings", (item) => ({ ...item, email: null, origin: null, ip_address: null }), "loads"],
  ["status_code as a string", (item) => ({ ...item, status_code: "200" }), /status_code/],
  ["invalid timestamp", (item) => ({ ...item, created_at: "2026-13-45T99:00:00Z" }), /created_at/],
  ["timestamp without zone", (item) => ({ ...item, updated_at: "2026-10-01T10:00:00" }), /updated_at/],
  ["missing user_id", ({ user_id, ...rest }) => rest, /user_id/],
  ["invalid uuid", (item) => ({ ...item, token: "12345" }), /token/],
  ["unknown method", (item) => ({ ...item, method: "BREW" }), /method/],
  ["method EXTENSION (the spec's catch-all)", (item) => ({ ...item, method: "EXTENSION" }), "loads"],
  ["a huge user agent", (item) => ({ ...item, user_agent: "x".repeat(200_000) }), "loads"],
  ["unknown fields", (item) => ({ ...item, response_body: { a: [1, 2] } }), "loads"],
  [
    "an unknown field named __proto__",
    (item) => Object.defineProperty({ ...item }, "__proto__", { value: { kept: [1] }, enumerable: true }),
    "loads",
  ],
  [
    "nanosecond timestamps",
    (item) => ({ ...item, created_at: String(item.created_at).replace(/Z$/, "789Z") }),
    "loads",
  ],
  ["null optional fields", (item) => ({ ...item, org_id: null, duration: null, status_code: null }), "loads"],
  ["not an object", () => "just a string", /expected object/i],
];

test("every broken record is loaded correctly or rejected with a precise reason; good ones load", async () => {
  const proxy = await startCountingProxy(sim.url, (pathname, body, search) => {
    if (pathname !== "/user/api-calls" || search.has("page_token")) return body;
    const page = JSON.parse(body) as { items: unknown[] };
    CATALOGUE.forEach(([, breakIt], i) => {
      page.items[i] = breakIt(page.items[i] as Item);
    });
    return JSON.stringify(page);
  });
  const { db, out, cleanup } = await tempWorkspace();
  try {
    const { summary, exitCode } = await exportOnce({
      baseUrl: proxy.url,
      token,
      flags: { db, out, limit: 200 },
    });
    const rejected = CATALOGUE.filter(([, , outcome]) => outcome !== "loads");
    expect(exitCode).toBe(4);
    expect(summary.records_rejected).toBe(rejected.length);
    const reasons = (await queryDb(db, "SELECT reason FROM rejects")).map((row) => String(row.reason));
    for (const [what, , outcome] of rejected) {
      expect(
        reasons.some((reason) => (outcome as RegExp).test(reason)),
        `${what}: ${reasons.join(" | ")}`,
      ).toBe(true);
    }
    const truth = await listAllCalls(sim.url, token);
    expect(summary.records_new).toBe(truth.length - rejected.length);
    const priced = await queryDb(
      db,
      "SELECT price_usd::VARCHAR AS price, price_raw, price_flags FROM api_calls WHERE price_flags IS NOT NULL OR price_usd = 12.34 ORDER BY price_usd",
    );
    // Half-even: 0.0000005 lies halfway between 0 and 0.000001 and goes to the even 0.
    expect(priced).toEqual([
      { price: "-0.500000", price_raw: null, price_flags: "negative" },
      { price: "0.000000", price_raw: "0.0000005", price_flags: "rounded" },
      { price: "12.340000", price_raw: null, price_flags: null },
    ]);
    const proto = await queryDb(
      db,
      "SELECT extra::VARCHAR AS extra FROM api_calls WHERE extra::VARCHAR LIKE '%__proto__%'",
    );
    expect(proto.map((row) => Object.entries(JSON.parse(String(row.extra))))).toEqual([
      [["__proto__", { kept: [1] }]],
    ]);
    const huge = await queryDb(db, "SELECT max(length(user_agent))::INTEGER AS n FROM api_calls");
    expect(huge[0]?.n).toBe(200_000);
  } finally {
    await proxy.close();
    await cleanup();
  }
});

test("duplicate ids within a page and across pages are stored once, the newest updated_at winning", async () => {
  let pages = 0;
  let carried: Item | undefined;
  const proxy = await startCountingProxy(sim.url, (pathname, body) => {
    if (pathname !== "/user/api-calls") return body;
    pages += 1;
    const page = JSON.parse(body) as { items: Item[] };
    if (pages === 1 && page.items[0] !== undefined) {
      // The same call twice on one page, the second one older and its id in upper case (one UUID
      // to DuckDB): the newer must win.
      const first = page.items[0];
      page.items.push({
        ...first,
        id: String(first.id).toUpperCase(),
        updated_at: "2020-01-01T00:00:00Z",
        price: "999",
      });
      carried = { ...first, updated_at: "2099-01-01T00:00:00Z", price: "0.5" };
    }
    if (pages === 2 && carried !== undefined) page.items.push(carried);
    return JSON.stringify(page);
  });
  const { db, out, cleanup } = await tempWorkspace();
  try {
    const { exitCode } = await exportOnce({
      baseUrl: proxy.url,
      token,
      flags: { db, out, limit: 200, operations: false },
    });
    expect(exitCode).toBe(0);
    const truth = await listAllCalls(sim.url, token);
    const counts = await queryDb(
      db,
      "SELECT count(*)::INTEGER AS n, count(DISTINCT id)::INTEGER AS ids FROM api_calls",
    );
    expect(counts).toEqual([{ n: truth.length, ids: truth.length }]);
    const winner = await queryDb(
      db,
      `SELECT price_usd::VARCHAR AS price FROM api_calls WHERE id = '${String(carried?.id)}'`,
    );
    expect(winner).toEqual([{ price: "0.500000" }]);
  } finally {
    await proxy.close();
    await cleanup();
  }
});

test("a page that is never valid JSON: retried, then the run ends partial with what it had, and resumes", async () => {
  let broken = true;
  const proxy = await startCountingProxy(sim.url, (pathname, body, search) =>
    broken && pathname === "/user/api-calls" && search.has("page_token")
      ? body.slice(0, body.length / 2)
      : body,
  );
  const { db, out, cleanup } = await tempWorkspace();
  try {
    const first = await exportOnce({
      baseUrl: proxy.url,
      token,
      flags: { db, out, limit: 200 },
      maxAttempts: 3,
    });
    expect(first.exitCode).toBe(4);
    expect(first.summary.message).toMatch(/not valid JSON.*gave up after 3 attempts/);
    expect(first.summary.records_new).toBe(200);
    broken = false;
    const second = await exportOnce({ baseUrl: proxy.url, token, flags: { db, out, limit: 200 } });
    expect(second.exitCode).toBe(0);
    expect(second.summary.scan_mode).toBe("resume");
    const truth = await listAllCalls(sim.url, token);
    expect(await queryDb(db, "SELECT count(*)::INTEGER AS n FROM api_calls")).toEqual([{ n: truth.length }]);
  } finally {
    await proxy.close();
    await cleanup();
  }
});
