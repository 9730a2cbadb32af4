import { afterEach, describe, expect, test } from "vitest";
import { runCli } from "../helpers/cli.js";
import { exportOnce, queryDb, tempWorkspace } from "../helpers/exportHarness.js";
import {
  type HostileApi,
  type HostileHandler,
  type HostileRequest,
  pageBody,
  pagedHandler,
  sendJson,
  startHostileApi,
  validCall,
} from "../helpers/hostileApi.js";
import { recordingLogger } from "../helpers/recordingLogger.js";

/** Pages of three calls each, minutes 1-3, 4-6, ... */
const calls = (page: number) => [validCall(3 * page + 1), validCall(3 * page + 2), validCall(3 * page + 3)];
/** The same history served right: four pages of calls, then Dropshot's empty last page. */
const FIXED_PAGES = [
  { items: calls(0) },
  { items: calls(1) },
  { items: calls(2) },
  { items: calls(3) },
  { items: [] },
];

let cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups = [];
});

async function serve(handler: HostileHandler): Promise<HostileApi> {
  const api = await startHostileApi(handler);
  cleanups.push(() => api.close());
  return api;
}

async function workspace() {
  const ws = await tempWorkspace();
  cleanups.push(ws.cleanup);
  return ws;
}

const stored = (db: string) =>
  queryDb(db, "SELECT count(*)::INTEGER AS n, count(DISTINCT id)::INTEGER AS ids FROM api_calls");
const lastCompleteScan = async (db: string) =>
  (await queryDb(db, "SELECT last_complete_scan FROM internal.export_state"))[0]?.last_complete_scan;

/**
 * One run against a broken API, then one against the same history served right: the first ends
 * partial naming the anomaly, keeps what came before it and does not mark the scan complete; the
 * second goes on from there and ends complete with every call once.
 */
async function brokenThenFixed(
  broken: HostileHandler,
  expected: { anomaly: RegExp; storedAfterBroken: number; maxRequests: number },
) {
  const { db, out } = await workspace();
  // A bound on the test, not on the code under test: a scan that loops is interrupted after 50
  // requests, and the test fails on its exit code instead of running on.
  const runaway = new AbortController();
  const bad = await serve((request, res) => {
    if (request.n > 50) runaway.abort();
    return broken(request, res);
  });
  const first = await exportOnce({
    baseUrl: bad.url,
    token: "t",
    flags: { db, out, operations: false },
    signal: runaway.signal,
  });
  expect(first.exitCode, JSON.stringify(first.summary)).toBe(4);
  expect(first.summary.status).toBe("partial");
  expect(first.summary.message).toMatch(/Pagination anomaly/);
  expect(first.summary.message).toMatch(expected.anomaly);
  // The calls' listing stops at the anomaly; the account sources after it still run.
  expect(callRequests(bad.requests)).toBeLessThanOrEqual(expected.maxRequests);
  expect(await stored(db)).toEqual([{ n: expected.storedAfterBroken, ids: expected.storedAfterBroken }]);
  expect(await lastCompleteScan(db)).toBeNull();
  const runs = await queryDb(db, "SELECT status, message FROM runs");
  expect(runs).toEqual([
    { status: "partial", message: expect.stringContaining(String(first.summary.message)) },
  ]);

  const good = await serve(pagedHandler(FIXED_PAGES));
  const second = await exportOnce({ baseUrl: good.url, token: "t", flags: { db, out, operations: false } });
  expect(second.exitCode, JSON.stringify(second.summary)).toBe(0);
  expect(second.summary.status).toBe("completed");
  expect(await stored(db)).toEqual([{ n: 12, ids: 12 }]);
  expect(await lastCompleteScan(db)).not.toBeNull();
  return { first, second };
}

describe("a cursor that does not advance stops the scan, partial, and the next run goes on", () => {
  test("a page token handed out twice in a row", async () => {
    const { second } = await brokenThenFixed(
      pagedHandler([{ items: calls(0) }, { items: calls(1), next: "p1" }]),
      { anomaly: /handed out the page token of an earlier page again/, storedAfterBroken: 6, maxRequests: 2 },
    );
    // It resumes at the page that repeated its token (re-read, stored once), not from the start.
    expect(second.summary.scan_mode).toBe("resume");
  });

  test("a cycle of page tokens", async () => {
    await brokenThenFixed(
      pagedHandler([{ items: calls(0) }, { items: calls(1) }, { items: calls(2), next: "p1" }]),
      { anomaly: /earlier page again/, storedAfterBroken: 9, maxRequests: 3 },
    );
  });

  test("empty pages that keep carrying a token", async () => {
    let n = 0;
    const { second } = await brokenThenFixed(
      (request, res) => {
        if (request.query.get("page_token") === null) sendJson(res, 200, pageBody(calls(0), "p1"));
        else sendJson(res, 200, pageBody([], `p${1 + ++n}`));
      },
      {
        anomaly: /3 empty pages in a row still carried a next page token/,
        storedAfterBroken: 3,
        maxRequests: 5,
      },
    );
    expect(second.summary.scan_mode).toBe("resume");
  });

  test("a cursor that goes back with fresh token text, forever", async () => {
    let n = 0;
    await brokenThenFixed(
      (request, res) => {
        const token = request.query.get("page_token");
        // p1 is right; from then on every page is the first one again, under a new token.
        if (token === "p1") sendJson(res, 200, pageBody(calls(1), "p2"));
        else if (token === null) sendJson(res, 200, pageBody(calls(0), "p1"));
        else sendJson(res, 200, pageBody(calls(0), `p2-${++n}`));
      },
      { anomaly: /cursor went back.*page 3 of this scan/, storedAfterBroken: 6, maxRequests: 4 },
    );
  });

  test("a page that brings only calls already read, all created at one instant", async () => {
    const at = (minute: number) => validCall(minute, { created_at: "2026-10-01T00:00:00Z" });
    let n = 0;
    await brokenThenFixed(
      (request, res) => {
        const token = request.query.get("page_token");
        if (token === null) sendJson(res, 200, pageBody([at(1), at(2), at(3)], "p1"));
        else sendJson(res, 200, pageBody([at(3), at(1), at(2)], `p1-${++n}`));
      },
      { anomaly: /brings no call it has not already read/, storedAfterBroken: 3, maxRequests: 3 },
    );
  });

  test("a page that starts at the last call already read and goes on with older ones, forever", async () => {
    let n = 0;
    await brokenThenFixed(
      (request, res) => {
        if (request.query.get("page_token") === null) sendJson(res, 200, pageBody(calls(0), "p1"));
        else sendJson(res, 200, pageBody([validCall(3), validCall(1), validCall(2)], `p1-${++n}`));
      },
      {
        anomaly: /page 2 of this scan brings no call it has not already read/,
        storedAfterBroken: 3,
        maxRequests: 3,
      },
    );
  });

  test("ties in created_at across a page boundary are legal, in the server's order", async () => {
    const tie = "2026-10-01T00:05:00Z";
    const api = await serve(
      pagedHandler([
        { items: [validCall(1), validCall(2, { created_at: tie }), validCall(3, { created_at: tie })] },
        { items: [validCall(4, { created_at: tie }), validCall(5, { created_at: tie }), validCall(6)] },
        { items: [validCall(7)] },
        { items: [] },
      ]),
    );
    const { db, out } = await workspace();
    const run = await exportOnce({ baseUrl: api.url, token: "t", flags: { db, out, operations: false } });
    expect(run.exitCode, JSON.stringify(run.summary)).toBe(0);
    expect(await stored(db)).toEqual([{ n: 7, ids: 7 }]);
  });
});

describe("whatever the API does, the output stays small", () => {
  test("the CLI against a cursor that never ends: exit 4 within a few requests, stderr of a few KB", async () => {
    let n = 0;
    const api = await serve((request, res) => {
      // Every page lists the same calls, under a new token each time.
      sendJson(res, 200, pageBody(calls(0), `again-${++n}-${request.query.get("page_token") ?? ""}`));
    });
    const { db, out } = await workspace();
    // A CLI that loops forever fails the test on its time limit.
    const result = await runCli(
      ["export", "--base-url", api.url, "--db", db, "--out", out, "--no-operations", "--json"],
      { env: { ZOO_API_TOKEN: "t" } },
    );
    expect(result.code, result.stderr).toBe(4);
    expect(callRequests(api.requests)).toBeLessThanOrEqual(3);
    expect(result.stderr.length).toBeLessThan(4096);
    expect(result.stdout.length).toBeLessThan(4096);
    const summary = JSON.parse(result.stdout) as { status: string; message: string };
    expect(summary.status).toBe("partial");
    expect(summary.message).toMatch(/Pagination anomaly: the API's cursor went back/);
  });

  test("one warning repeated for thousands of calls is one line with a count, in the summary, the log and runs", async () => {
    // 3000 calls on one page, newest first: every call after the first is listed after a newer one.
    const items = Array.from({ length: 3000 }, (_, i) => validCall(3000 - i));
    const api = await serve(pagedHandler([{ items }, { items: [] }]));
    const { db, out } = await workspace();
    const logger = recordingLogger();
    const logged = logger.lines;
    const run = await exportOnce({
      baseUrl: api.url,
      token: "t",
      flags: { db, out, operations: false, limit: 5000 },
      logger,
    });
    expect(run.exitCode, JSON.stringify(run.summary)).toBe(0);
    expect(await stored(db)).toEqual([{ n: 3000, ids: 3000 }]);
    const outOfOrder = run.summary.warnings.filter((line) => line.includes("listed after a newer call"));
    expect(outOfOrder).toHaveLength(1);
    expect(outOfOrder[0]).toMatch(/and 2998 more like it/);
    expect(logged.filter((line) => line.includes("listed after a newer call"))).toHaveLength(1);
    expect(JSON.stringify(run.summary).length).toBeLessThan(4096);
    const [row] = await queryDb(db, "SELECT message FROM runs");
    expect(String(row?.message)).toMatch(/and 2998 more like it/);
    expect(String(row?.message).length).toBeLessThan(4096);
  });
});

/** The requests of the calls' listing (the account sources' requests come after it). */
function callRequests(requests: readonly HostileRequest[]): number {
  return requests.filter((request) => request.path === "/user/api-calls").length;
}
