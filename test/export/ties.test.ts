import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { decodePageToken, type RunningSimulator, startSimulator } from "../../src/sim/index.js";
import { listAllCalls, type TruthCall, toMicros } from "../helpers/apiTruth.js";
import { exportOnce, queryDb, tempWorkspace } from "../helpers/exportHarness.js";

/**
 * created_at ties on the real API, also across a page boundary. With a third of the
 * calls tied to their neighbour, an export must still equal the API's listing call by call: a cursor
 * that resumed by created_at alone would skip the rest of a tie group, one that re-read it would
 * double it.
 */
const OPTIONS = { seed: 23, calls: 2500, days: 20, users: 1, tieShare: 0.3 };
const DAY_MS = 86_400_000;

let sim: RunningSimulator;
let token: string;
let truth: TruthCall[];
/** Item positions k of the listing where item k has the created_at of item k - 1. */
let ties: Set<number>;

beforeAll(async () => {
  sim = await startSimulator(OPTIONS);
  token = sim.users[0]?.token ?? "";
  truth = await listAllCalls(sim.url, token);
  ties = tiePositions(truth);
});
afterAll(() => sim.close());

function tiePositions(calls: readonly TruthCall[]): Set<number> {
  const positions = new Set<number>();
  for (let k = 1; k < calls.length; k++)
    if (calls[k]?.created_at === calls[k - 1]?.created_at) positions.add(k);
  return positions;
}

/** Page boundaries (after page n of `limit` items) that fall inside a tie group. */
function tiedBoundaries(limit: number, pages: number): number {
  let count = 0;
  for (let n = 1; n <= pages; n++) if (ties.has(n * limit)) count++;
  return count;
}

/** The stored calls equal the API's listing: same ids, each once, same created_at and price. */
async function expectEqualsListing(db: string, listing: readonly TruthCall[]): Promise<void> {
  const rows = await queryDb(
    db,
    "SELECT id::VARCHAR AS id, epoch_us(created_at) AS created, price_usd::VARCHAR AS price FROM api_calls ORDER BY created_at, id",
  );
  expect(rows.length).toBe(listing.length);
  const stored = new Map(rows.map((row) => [String(row.id), row]));
  expect(stored.size).toBe(listing.length);
  for (const call of listing) {
    const row = stored.get(call.id);
    expect(row, `call ${call.id} missing`).toBeDefined();
    expect(Number(row?.created), call.id).toBe(microsOf(call.created_at));
    expect(row?.price === null ? null : toMicros(String(row?.price)), call.id).toBe(
      call.price === null ? null : toMicros(call.price),
    );
  }
}

/** Microseconds since the epoch of an RFC 3339 UTC timestamp with 0 to 9 fraction digits. */
function microsOf(timestamp: string): number {
  const match = /^(.{19})(?:\.(\d+))?Z$/.exec(timestamp);
  if (match === null) throw new Error(`not a timestamp: ${timestamp}`);
  return Date.parse(`${match[1]}Z`) * 1000 + Number(`${match[2] ?? ""}000000`.slice(0, 6));
}

/** Records each listing request's page token (null for a first page) until `stop`, holding none. */
function recordTokens(): { tokens: (string | null)[]; stop: () => void } {
  const tokens: (string | null)[] = [];
  const gate = sim.holdRequests((request) => {
    if (request.path === "/user/api-calls") tokens.push(request.query.get("page_token"));
    return false;
  });
  return { tokens, stop: () => gate.release() };
}

describe("an export over tied created_at", () => {
  test("the listing has ties, many of them between two calls of different pages", () => {
    expect(truth.length).toBeGreaterThan(2000);
    expect(ties.size / truth.length).toBeGreaterThan(0.2);
  });

  test.each([7, 10, 64])("limit %i: every call once, equal to the listing", async (limit) => {
    const pages = Math.ceil(truth.length / limit);
    // The test means something only if ties sit on page boundaries at this limit.
    expect(tiedBoundaries(limit, pages)).toBeGreaterThan(pages / 5);
    const workspace = await tempWorkspace();
    try {
      const { db, out } = workspace;
      const { summary, exitCode } = await exportOnce({
        baseUrl: sim.url,
        token,
        flags: { db, out, limit, operations: false },
      });
      expect(exitCode).toBe(0);
      expect(summary.records_seen).toBe(truth.length);
      expect(summary.records_new).toBe(truth.length);
      expect(summary.pages).toBe(pages + 1);
      await expectEqualsListing(db, truth);
    } finally {
      await workspace.cleanup();
    }
  });

  test("a run stopped at a checkpoint inside a tie group resumes after it, skipping and doubling nothing", async () => {
    // A limit whose first three page boundaries all fall inside tie groups, so whichever page the
    // stop commits last, the checkpoint names a call whose tie group continues on the next page.
    const limit = Array.from({ length: 300 }, (_, k) => k + 3).find((l) => tiedBoundaries(l, 3) === 3);
    expect(limit).toBeDefined();
    const pageSize = limit ?? 0;
    const workspace = await tempWorkspace();
    try {
      const { db, out } = workspace;
      const flags = { db, out, limit: pageSize, operations: false };
      const stop = new AbortController();
      // Pages 1 to 3 are answered; the request for page 4 waits until the run has been told to stop.
      // The stop commits the pages in hand (exit 130), so the last checkpoint is after page 2 or 3.
      const gate = sim.holdRequests(
        (request) =>
          request.path === "/user/api-calls" && request.query.has("page_token") && stopAfterThird(),
      );
      let listed = 0;
      function stopAfterThird(): boolean {
        listed++;
        return listed >= 3;
      }
      // One page per batch, so each page read is a checkpoint.
      const stopped = exportOnce({
        baseUrl: sim.url,
        token,
        flags: { ...flags, batchRecords: pageSize },
        signal: stop.signal,
      });
      await Promise.race([
        gate.reached,
        stopped.then(() => {
          throw new Error("the run ended before it asked for page 4");
        }),
      ]);
      stop.abort();
      gate.release();
      const first = await stopped;
      expect(first.exitCode).toBe(130);

      const seen = recordTokens();
      const resumed = await exportOnce({ baseUrl: sim.url, token, flags });
      seen.stop();
      expect(resumed.exitCode).toBe(0);
      expect(resumed.summary.scan_mode).toBe("resume");
      const startToken = seen.tokens[0];
      expect(typeof startToken).toBe("string");
      const decoded = decodePageToken(startToken ?? "");
      if (!decoded.ok) throw new Error(`the resume token does not decode: ${decoded.reason}`);
      const at = truth.findIndex((call) => call.id === decoded.token.id);
      expect(at % pageSize).toBe(pageSize - 1);
      expect(ties.has(at + 1), "the checkpoint's call ties with the next one").toBe(true);
      await expectEqualsListing(db, truth);
    } finally {
      await workspace.cleanup();
    }
  });

  test("an incremental run after new tied calls arrived adds exactly those", async () => {
    const workspace = await tempWorkspace();
    try {
      const { db, out } = workspace;
      const flags = { db, out, limit: 10, operations: false, lookback: "1d" };
      expect((await exportOnce({ baseUrl: sim.url, token, flags })).exitCode).toBe(0);
      sim.clock.advance(2 * DAY_MS);
      const later = await listAllCalls(sim.url, token);
      const added = later.length - truth.length;
      expect(added).toBeGreaterThan(100);
      expect([...tiePositions(later)].filter((k) => k > truth.length).length).toBeGreaterThan(added / 5);
      const { summary, exitCode } = await exportOnce({ baseUrl: sim.url, token, flags });
      expect(exitCode).toBe(0);
      expect(summary.scan_mode).toBe("incremental");
      expect(summary.records_new).toBe(added);
      await expectEqualsListing(db, later);
    } finally {
      await workspace.cleanup();
    }
  });
});
