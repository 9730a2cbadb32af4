import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { type RunningSimulator, startSimulator } from "../../src/sim/index.js";
import { listAllCalls } from "../helpers/apiTruth.js";
import { startCountingProxy } from "../helpers/countingProxy.js";
import { exportOnce, queryDb, tempWorkspace } from "../helpers/exportHarness.js";

/** What a run ends with, compared between a fault-free and a faulty run. */
const RESULT_SQL =
  "SELECT (SELECT count(*)::INTEGER FROM api_calls) AS calls, (SELECT sum(price_usd)::VARCHAR FROM api_calls) AS total, (SELECT count(*)::INTEGER FROM async_operations) AS operations, (SELECT string_agg(status, ',' ORDER BY id) FROM async_operations) AS statuses";

let sim: RunningSimulator;
let token: string;
let expected: Record<string, unknown>[];

beforeAll(async () => {
  sim = await startSimulator({ seed: 41, calls: 2000, days: 10, users: 1 });
  token = sim.users[0]?.token ?? "";
  const clean = await tempWorkspace();
  await exportOnce({ baseUrl: sim.url, token, flags: { db: clean.db, out: clean.out, limit: 100 } });
  expected = await queryDb(clean.db, RESULT_SQL);
  await clean.cleanup();
});
beforeEach(() => sim.setFaults({}));
afterAll(() => sim.close());

describe("faults from the API", () => {
  test("a storm of 429s, 5xx, resets, truncated bodies and latency: same result, retries reported", async () => {
    sim.setFaults({
      rate429: 0.08,
      retryAfterSeconds: 0,
      rate5xx: 0.08,
      rateReset: 0.05,
      rateTruncated: 0.05,
      latencyMs: 2,
      faultSeed: 5,
    });
    const { db, out, cleanup } = await tempWorkspace();
    try {
      const { summary, exitCode } = await exportOnce({
        baseUrl: sim.url,
        token,
        flags: { db, out, limit: 100 },
        maxAttempts: 12,
      });
      expect(exitCode).toBe(0);
      expect(summary.retries).toBeGreaterThan(10);
      expect(await queryDb(db, RESULT_SQL)).toEqual(expected);
      const runs = await queryDb(db, "SELECT retries::INTEGER AS retries FROM runs");
      expect(runs[0]?.retries).toBe(summary.retries);
    } finally {
      await cleanup();
    }
  });

  test("429 with Retry-After is never retried early, in a whole export", async () => {
    const seen: number[] = [];
    let refused = 0;
    const proxy = await startCountingProxy(sim.url, undefined, (pathname) => {
      if (pathname !== "/user/api-calls") return undefined;
      seen.push(Date.now());
      // Refuse every third listing with a 1-second Retry-After.
      if (seen.length % 3 === 1) {
        refused += 1;
        return {
          status: 429,
          body: JSON.stringify({ message: "slow down", request_id: "r" }),
          headers: { "retry-after": "1" },
        };
      }
      return undefined;
    });
    const { db, out, cleanup } = await tempWorkspace();
    try {
      const { exitCode } = await exportOnce({
        baseUrl: proxy.url,
        token,
        flags: { db, out, limit: 500, operations: false },
      });
      expect(exitCode).toBe(0);
      expect(refused).toBeGreaterThan(1);
      for (let i = 0; i < seen.length; i++) {
        if (i % 3 === 0 && seen[i + 1] !== undefined)
          expect((seen[i + 1] ?? 0) - (seen[i] ?? 0)).toBeGreaterThanOrEqual(990);
      }
    } finally {
      await proxy.close();
      await cleanup();
    }
  });

  test("when the retry budget runs out, the run commits what it has, exits 4, and the next run continues", async () => {
    let failing = true;
    const proxy = await startCountingProxy(sim.url, undefined, (pathname, _, count) =>
      failing && pathname === "/user/api-calls" && count > 6
        ? { status: 503, body: JSON.stringify({ message: "unavailable", request_id: "r" }) }
        : undefined,
    );
    const { db, out, cleanup } = await tempWorkspace();
    try {
      const first = await exportOnce({
        baseUrl: proxy.url,
        token,
        flags: { db, out, limit: 100 },
        maxAttempts: 3,
      });
      expect(first.exitCode).toBe(4);
      expect(first.summary.status).toBe("partial");
      expect(first.summary.message).toMatch(/503.*gave up after 3 attempts/);
      const kept = await queryDb(db, "SELECT count(*)::INTEGER AS n FROM api_calls");
      expect(kept[0]?.n).toBe(600);
      failing = false;
      const second = await exportOnce({ baseUrl: proxy.url, token, flags: { db, out, limit: 100 } });
      expect(second.exitCode).toBe(0);
      expect(second.summary.scan_mode).toBe("resume");
      expect(await queryDb(db, RESULT_SQL)).toEqual(expected);
    } finally {
      await proxy.close();
      await cleanup();
    }
  });
});

describe("pagination anomalies", () => {
  /** Runs one export through a proxy that rewrites list pages, and checks it ends with every call. */
  async function exportThrough(
    rewrite: (body: Record<string, unknown>, search: URLSearchParams, n: number) => Record<string, unknown>,
  ) {
    let n = 0;
    const proxy = await startCountingProxy(
      sim.url,
      (pathname, body, search) => {
        if (pathname !== "/user/api-calls") return body;
        n += 1;
        return JSON.stringify(rewrite(JSON.parse(body) as Record<string, unknown>, search, n));
      },
      // Tokens this test made up are answered here: the simulator, like the API, would refuse them.
      (_, search) => {
        const token = search.get("page_token") ?? "";
        if (!token.startsWith("bogus-")) return undefined;
        n += 1;
        return { status: 200, body: JSON.stringify({ items: [], next_page: `bogus-${n}` }) };
      },
    );
    const workspace = await tempWorkspace();
    try {
      const result = await exportOnce({
        baseUrl: proxy.url,
        token,
        flags: { db: workspace.db, out: workspace.out, limit: 100, operations: false },
      });
      const stored = await queryDb(
        workspace.db,
        "SELECT count(*)::INTEGER AS n, count(DISTINCT id)::INTEGER AS ids FROM api_calls",
      );
      return { ...result, stored: stored[0], requests: proxy.count("/user/api-calls") };
    } finally {
      await proxy.close();
      await workspace.cleanup();
    }
  }

  test("a page that repeats an earlier token stops the scan as a pagination anomaly instead of looping", async () => {
    let firstToken: unknown;
    const result = await exportThrough((page, _, n) => {
      if (n === 1) firstToken = page.next_page;
      return n === 4 ? { ...page, next_page: firstToken } : page;
    });
    expect(result.summary.status).toBe("partial");
    expect(result.summary.message).toMatch(/earlier page again/);
    expect(result.requests).toBeLessThan(10);
    expect(result.stored).toEqual({ n: 400, ids: 400 });
  });

  test("empty pages that still carry a token: followed a few times, then the scan stops as an anomaly", async () => {
    const result = await exportThrough((page, _, n) =>
      n === 3 ? { items: [], next_page: `bogus-${n}` } : page,
    );
    expect(result.summary.status).toBe("partial");
    expect(result.summary.message).toMatch(/empty pages in a row/);
    expect(result.requests).toBe(5);
    expect(result.stored).toEqual({ n: 200, ids: 200 });
  });

  test("items going backwards in time are loaded and reported", async () => {
    const truth = await listAllCalls(sim.url, token);
    const result = await exportThrough((page, _, n) => {
      const items = page.items as unknown[];
      return n === 2 ? { ...page, items: [...items].reverse() } : page;
    });
    expect(result.summary.warnings.join("\n")).toMatch(/listed after a newer call/);
    expect(result.stored).toEqual({ n: truth.length, ids: truth.length });
  });
});
