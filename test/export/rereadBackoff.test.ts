import { afterEach, describe, expect, test } from "vitest";
import type { ExportFlags } from "../../src/config/exportConfig.js";
import { type RunningSimulator, type SimulatorOptions, startSimulator } from "../../src/sim/index.js";
import { exportOnce, queryDb, tempWorkspace } from "../helpers/exportHarness.js";

const DAY_MS = 86_400_000;
/** The longest wait between two re-reads of a call (select_pending_rereads.sql). */
const BACKOFF_CAP_DAYS = 16;
/** The exporter's default lookback window (--lookback). */
const LOOKBACK_DAYS = 3;
/** Past the latest billing of the simulator (40 days late) plus the wait cap, with room. */
const MAX_NIGHTS = 70;
/**
 * 20% of 800 calls over 60 days billed 3 to 40 days late, a third of those when the month closes:
 * enough late calls to measure, few enough for a few hundred nightly runs to stay fast.
 */
const SIM: SimulatorOptions = {
  seed: 13,
  calls: 800,
  days: 60,
  users: 1,
  now: new Date("2026-06-20T00:00:00Z"),
  lateBilling: { share: 0.2, days: [3, 40], monthEndShare: 0.3 },
};

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

interface Nights {
  /** GET /user/api-calls/{id} requests of the nightly runs. */
  rereadRequests: number;
  /** What re-reading every pending call every night would have asked over the same nights. */
  everyNightRequests: number;
  /** Calls the re-reads found settled. */
  settledByRereads: number;
  /** For each call pending before the window after the cold run: the night it was stored settled. */
  settledOn: Map<string, number>;
  /** For every call stored pending on some night: the first night the API answered it settled. */
  settledAtApi: Map<string, number>;
  nights: number;
}

/**
 * A cold export, then one export a simulated night until every call pending before the window
 * after the cold run is stored settled. Before each night's run the API is asked directly about
 * every call stored pending that it has not yet answered settled: the night it first does is the
 * earliest any run could store it, and the night a run asking every pending call every night
 * would; what such runs would have asked is counted from it.
 */
async function runNights(): Promise<Nights> {
  const sim = await startSimulator(SIM);
  closers.push(() => sim.close());
  const workspace = await tempWorkspace();
  closers.push(workspace.cleanup);
  const token = sim.users[0]?.token ?? "";
  const flags: ExportFlags = { db: workspace.db, out: workspace.out, limit: 500, operations: false };
  const run = () => exportOnce({ baseUrl: sim.url, token, flags, now: () => sim.clock.now() });
  expect((await run()).exitCode).toBe(0);
  const pending = await pendingBeforeWindow(workspace.db);
  expect(pending.size).toBeGreaterThan(30);
  const result: Nights = {
    rereadRequests: 0,
    everyNightRequests: 0,
    settledByRereads: 0,
    settledOn: new Map(),
    settledAtApi: new Map(),
    nights: 0,
  };
  for (let night = 1; night <= MAX_NIGHTS && result.settledOn.size < pending.size; night++) {
    sim.clock.advance(DAY_MS);
    // Every call stored pending, asked of the API: one it answers settled tonight for the first
    // time could be stored tonight at the earliest.
    const before = await pendingCalls(workspace.db);
    for (const call of before.calls) {
      if (!result.settledAtApi.has(call.id) && (await settledAtApi(sim, token, call.id)))
        result.settledAtApi.set(call.id, night);
    }
    sim.stats.reset();
    const nightly = await run();
    expect(nightly.exitCode).toBe(0);
    result.rereadRequests += sim.stats.byPath["/user/api-calls/{id}"] ?? 0;
    result.settledByRereads += nightly.summary.pending_rereads?.settled ?? 0;
    result.nights = night;
    // Asking every pending call every night would ask tonight each call this run could re-read
    // (before the window, and not after the first call its scan read: select_pending_rereads.sql)
    // that the API had not answered settled before tonight: it would have stored that already.
    const scannedFrom = await firstScannedCreatedAt(workspace.db, nightly.summary.records_seen);
    result.everyNightRequests += before.calls.filter((call) => {
      const settled = result.settledAtApi.get(call.id);
      return (
        call.createdAt < before.windowStart &&
        call.createdAt <= scannedFrom &&
        (settled === undefined || settled === night)
      );
    }).length;
    const stillPending = await pendingIds(workspace.db);
    for (const id of pending) {
      if (!stillPending.has(id) && !result.settledOn.has(id)) result.settledOn.set(id, night);
    }
  }
  // Nothing is left pending for good.
  expect(result.settledOn.size).toBe(pending.size);
  return result;
}

/** Whether the API answers the call settled (its billing landed), asked as a run would ask. */
async function settledAtApi(sim: RunningSimulator, token: string, id: string): Promise<boolean> {
  const response = await fetch(`${sim.url}/user/api-calls/${id}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(response.status).toBe(200);
  const call = (await response.json()) as { completed_at?: string | null };
  return call.completed_at !== null && call.completed_at !== undefined;
}

/** The stored calls pending billing, and where a run now would start its lookback window. */
async function pendingCalls(
  db: string,
): Promise<{ calls: { id: string; createdAt: string }[]; windowStart: string }> {
  const rows = await queryDb(
    db,
    `SELECT id::VARCHAR AS id, strftime(created_at, '%Y-%m-%dT%H:%M:%S.%f') AS created_at,
       strftime((SELECT max(created_at) FROM api_calls) - INTERVAL ${LOOKBACK_DAYS} DAY, '%Y-%m-%dT%H:%M:%S.%f') AS window_start
     FROM api_calls WHERE completed_at IS NULL`,
  );
  return {
    calls: rows.map((row) => ({ id: String(row.id), createdAt: String(row.created_at) })),
    windowStart: String(rows[0]?.window_start ?? ""),
  };
}

/** created_at of the first call a run's scan read: the scan reads the newest `recordsSeen` calls. */
async function firstScannedCreatedAt(db: string, recordsSeen: number): Promise<string> {
  expect(recordsSeen).toBeGreaterThan(0);
  const [row] = await queryDb(
    db,
    `SELECT strftime(created_at, '%Y-%m-%dT%H:%M:%S.%f') AS created_at FROM api_calls
     ORDER BY created_at DESC LIMIT 1 OFFSET ${recordsSeen - 1}`,
  );
  return String(row?.created_at);
}

async function pendingBeforeWindow(db: string): Promise<Set<string>> {
  const rows = await queryDb(
    db,
    `SELECT id::VARCHAR AS id FROM api_calls
     WHERE completed_at IS NULL AND created_at < (SELECT max(created_at) FROM api_calls) - INTERVAL ${LOOKBACK_DAYS} DAY`,
  );
  return new Set(rows.map((row) => String(row.id)));
}

async function pendingIds(db: string): Promise<Set<string>> {
  const rows = await queryDb(db, "SELECT id::VARCHAR AS id FROM api_calls WHERE completed_at IS NULL");
  return new Set(rows.map((row) => String(row.id)));
}

describe("re-reads of calls pending billing back off per call", () => {
  test("nightly runs ask far less, and each late call is settled at most the wait cap later", async () => {
    const nights = await runNights();
    // Every late call is stored settled once the API has it settled, none more than the wait cap
    // later, and never before.
    const apiNights: number[] = [];
    for (const [id, night] of nights.settledOn) {
      const atApi = nights.settledAtApi.get(id);
      expect(atApi, `call ${id}`).toBeDefined();
      apiNights.push(atApi ?? 0);
      expect(night - (atApi ?? 0), `call ${id}`).toBeGreaterThanOrEqual(0);
      expect(night - (atApi ?? 0), `call ${id}`).toBeLessThanOrEqual(BACKOFF_CAP_DAYS);
    }
    expect(nights.nights).toBeLessThanOrEqual(Math.max(...apiNights) + BACKOFF_CAP_DAYS);
    // The re-reads settle them all (and the new late ones) for a fraction of the requests that
    // asking every pending call every night would make over the same nights.
    expect(nights.settledByRereads).toBeGreaterThanOrEqual(nights.settledOn.size);
    expect(nights.rereadRequests).toBeLessThanOrEqual(nights.everyNightRequests * 0.5);
  });

  test("a call asked and still pending waits 1, 2, 4, 8, 16 days, or until a month closes", async () => {
    const sim = await startSimulator(SIM);
    closers.push(() => sim.close());
    const workspace = await tempWorkspace();
    closers.push(workspace.cleanup);
    const token = sim.users[0]?.token ?? "";
    const flags: ExportFlags = { db: workspace.db, out: workspace.out, limit: 500, operations: false };
    // The simulator's clock stays put, so nothing settles; the run's clock is set per run, within
    // one month (the 2nd to the 20th) so that no month closes between the asks.
    const at = (iso: string) => async () => {
      sim.stats.reset();
      const run = await exportOnce({ baseUrl: sim.url, token, flags, now: () => new Date(iso) });
      expect(run.exitCode).toBe(0);
      return sim.stats.byPath["/user/api-calls/{id}"] ?? 0;
    };
    await at("2026-07-02T02:00:00Z")();
    const pending = (await pendingBeforeWindow(workspace.db)).size;
    expect(pending).toBeGreaterThan(30);
    // The first nightly asks every pending one before the window that its scan did not read again
    // (it starts at the stored page position before the window).
    const first = await at("2026-07-03T02:00:00Z")();
    expect(first).toBeGreaterThan(5);
    expect(first).toBeLessThanOrEqual(pending);
    // Asked once: due a day later (less 12 hours), not an hour later.
    expect(await at("2026-07-03T03:00:00Z")()).toBe(0);
    expect(await at("2026-07-04T01:00:00Z")()).toBe(first);
    // Asked twice: due two days later.
    expect(await at("2026-07-05T01:00:00Z")()).toBe(0);
    expect(await at("2026-07-06T01:00:00Z")()).toBe(first);
    // Asked three times: due four days later.
    expect(await at("2026-07-09T01:00:00Z")()).toBe(0);
    expect(await at("2026-07-10T01:00:00Z")()).toBe(first);
    const asks = await queryDb(
      workspace.db,
      "SELECT min(asks)::INTEGER AS low, max(asks)::INTEGER AS high FROM internal.pending_rereads",
    );
    expect(asks).toEqual([{ low: 4, high: 4 }]);
    // Asked four times: due eight days later; then the wait is 16 days.
    expect(await at("2026-07-17T01:00:00Z")()).toBe(0);
    expect(await at("2026-07-28T01:00:00Z")()).toBe(first);
    // A month closes: every pending call is due on the first run a day after it, whatever its wait.
    expect(await at("2026-08-01T12:00:00Z")()).toBe(0);
    expect(await at("2026-08-02T01:00:00Z")()).toBe(first);
  });
});
