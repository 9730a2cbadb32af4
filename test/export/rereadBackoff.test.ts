import { afterAll, afterEach, describe, expect, test } from "vitest";
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
/** Nightly runs per test: a dozen exports, each with the test's own look at every pending call. */
const NIGHTS_PER_TEST = 12;
/** The test's own GET /user/api-calls/{id} asks in flight at once. */
const API_ASKS_AT_ONCE = 16;
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

/**
 * One nightly scenario: a cold export, then one export a simulated night until every call pending
 * before the window after the cold run is stored settled. Before each night's run the API is asked
 * directly about every call stored pending that it has not yet answered settled: the night it first
 * does is the earliest any run could store it, and the night a run asking every pending call every
 * night would; what such runs would have asked is counted from it.
 */
interface Nights {
  sim: RunningSimulator;
  token: string;
  db: string;
  run: () => ReturnType<typeof exportOnce>;
  /** The calls pending before the window after the cold run: the ones followed until settled. */
  pending: Set<string>;
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
  /** The last night run. */
  nights: number;
}

/**
 * Starts the simulator, makes the cold export, and notes which calls it left pending before the
 * window; what is to be closed at the end goes to `toClose`.
 */
async function coldRun(toClose: Array<() => Promise<void>>): Promise<Nights> {
  const sim = await startSimulator(SIM);
  toClose.push(() => sim.close());
  const workspace = await tempWorkspace();
  toClose.push(workspace.cleanup);
  const token = sim.users[0]?.token ?? "";
  const flags: ExportFlags = { db: workspace.db, out: workspace.out, limit: 500, operations: false };
  const run = () => exportOnce({ baseUrl: sim.url, token, flags, now: () => sim.clock.now() });
  expect((await run()).exitCode).toBe(0);
  return {
    sim,
    token,
    db: workspace.db,
    run,
    pending: await pendingBeforeWindow(workspace.db),
    rereadRequests: 0,
    everyNightRequests: 0,
    settledByRereads: 0,
    settledOn: new Map(),
    settledAtApi: new Map(),
    nights: 0,
  };
}

/** Runs the nights after `result.nights` up to `last`, or until every followed call is settled. */
async function runNights(result: Nights, last: number): Promise<void> {
  const { sim, token, db, run, pending } = result;
  for (let night = result.nights + 1; night <= last && result.settledOn.size < pending.size; night++) {
    sim.clock.advance(DAY_MS);
    // Every call stored pending, asked of the API: one it answers settled tonight for the first
    // time could be stored tonight at the earliest.
    const before = await pendingCalls(db);
    const unanswered = before.calls.filter((call) => !result.settledAtApi.has(call.id));
    for (let start = 0; start < unanswered.length; start += API_ASKS_AT_ONCE) {
      const asked = unanswered.slice(start, start + API_ASKS_AT_ONCE);
      const settled = await Promise.all(asked.map((call) => settledAtApi(sim, token, call.id)));
      asked.forEach((call, k) => {
        if (settled[k]) result.settledAtApi.set(call.id, night);
      });
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
    const scannedFrom = await firstScannedCreatedAt(db, nightly.summary.records_seen);
    result.everyNightRequests += before.calls.filter((call) => {
      const settled = result.settledAtApi.get(call.id);
      return (
        call.createdAt < before.windowStart &&
        call.createdAt <= scannedFrom &&
        (settled === undefined || settled === night)
      );
    }).length;
    const stillPending = await pendingIds(db);
    for (const id of pending) {
      if (!stillPending.has(id) && !result.settledOn.has(id)) result.settledOn.set(id, night);
    }
  }
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
  describe("nightly runs over simulated weeks", () => {
    // One scenario, whose every night starts from what the nights before it stored: the nights
    // cannot stand alone. They are split into tests of at most NIGHTS_PER_TEST nights, run in order,
    // so that no test runs dozens of exports (a busy machine must not take one past its time limit).
    let nights: Nights | undefined;
    const scenarioClosers: Array<() => Promise<void>> = [];
    afterAll(async () => {
      for (const close of scenarioClosers.splice(0)) await close();
    });
    const started = () => {
      if (nights === undefined) throw new Error("the cold run failed: the nights have nothing to go on");
      return nights;
    };

    test("the cold run leaves late calls pending before the window", async () => {
      nights = await coldRun(scenarioClosers);
      expect(nights.pending.size).toBeGreaterThan(30);
    });

    // The seeded scenario settles its last call in its third stretch of nights; a stretch that ran
    // no night would check nothing, so each must run at least one.
    test.each([
      [1, NIGHTS_PER_TEST],
      [NIGHTS_PER_TEST + 1, 2 * NIGHTS_PER_TEST],
      [2 * NIGHTS_PER_TEST + 1, MAX_NIGHTS],
    ])(
      "nights %i to %i (or until all are settled): each late call is stored settled once the API has it, at most the wait cap later",
      async (first, last) => {
        const scenario = started();
        expect(scenario.nights, "the nights before these all ran").toBe(first - 1);
        expect(scenario.settledOn.size, "some late calls are still pending").toBeLessThan(
          scenario.pending.size,
        );
        await runNights(scenario, last);
        // Every late call stored settled on these nights was settled at the API no more than the wait
        // cap before, and never after.
        for (const [id, night] of scenario.settledOn) {
          if (night < first) continue;
          const atApi = scenario.settledAtApi.get(id);
          expect(atApi, `call ${id}`).toBeDefined();
          expect(night - (atApi ?? 0), `call ${id}`).toBeGreaterThanOrEqual(0);
          expect(night - (atApi ?? 0), `call ${id}`).toBeLessThanOrEqual(BACKOFF_CAP_DAYS);
        }
      },
    );

    test("every late call ends settled, and the re-reads asked at most half of asking every night", () => {
      const scenario = started();
      // Nothing is left pending for good.
      expect(scenario.settledOn.size).toBe(scenario.pending.size);
      const apiNights = [...scenario.settledOn.keys()].map((id) => scenario.settledAtApi.get(id) ?? 0);
      expect(scenario.nights).toBeLessThanOrEqual(Math.max(...apiNights) + BACKOFF_CAP_DAYS);
      // The re-reads settle them all (and the new late ones) for a fraction of the requests that
      // asking every pending call every night would make over the same nights.
      expect(scenario.settledByRereads).toBeGreaterThanOrEqual(scenario.settledOn.size);
      expect(scenario.rereadRequests).toBeLessThanOrEqual(scenario.everyNightRequests * 0.5);
    });
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
