import { afterEach, describe, expect, test } from "vitest";
import type { ExportFlags } from "../../src/config/exportConfig.js";
import { type RunningSimulator, type SimulatorOptions, startSimulator } from "../../src/sim/index.js";
import { exportOnce, queryDb, tempWorkspace } from "../helpers/exportHarness.js";

const DAY_MS = 86_400_000;
/** The longest wait between two re-reads of a call (select_pending_rereads.sql). */
const BACKOFF_CAP_DAYS = 16;
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
  /** GET /user/api-calls/{id} requests over every nightly run. */
  rereadRequests: number;
  /** Calls the re-reads found settled. */
  settledByRereads: number;
  /** For each call pending before the window after the cold run: the night it was stored settled. */
  settledOn: Map<string, number>;
  nights: number;
}

/**
 * A cold export, then one export a simulated night until every call pending before the window
 * after the cold run is stored settled. `exporterClock(night)` is the run's clock on that night.
 */
async function runNights(exporterClock: (sim: RunningSimulator, night: number) => Date): Promise<Nights> {
  const sim = await startSimulator(SIM);
  closers.push(() => sim.close());
  const workspace = await tempWorkspace();
  closers.push(workspace.cleanup);
  const token = sim.users[0]?.token ?? "";
  const flags: ExportFlags = { db: workspace.db, out: workspace.out, limit: 500, operations: false };
  const run = (night: number) =>
    exportOnce({ baseUrl: sim.url, token, flags, now: () => exporterClock(sim, night) });
  expect((await run(0)).exitCode).toBe(0);
  const pending = await pendingBeforeWindow(workspace.db);
  expect(pending.size).toBeGreaterThan(30);
  const result: Nights = { rereadRequests: 0, settledByRereads: 0, settledOn: new Map(), nights: 0 };
  for (let night = 1; night <= MAX_NIGHTS && result.settledOn.size < pending.size; night++) {
    sim.clock.advance(DAY_MS);
    sim.stats.reset();
    const nightly = await run(night);
    expect(nightly.exitCode).toBe(0);
    result.rereadRequests += sim.stats.byPath["/user/api-calls/{id}"] ?? 0;
    result.settledByRereads += nightly.summary.pending_rereads?.settled ?? 0;
    result.nights = night;
    const stillPending = await pendingIds(workspace.db);
    for (const id of pending) {
      if (!stillPending.has(id) && !result.settledOn.has(id)) result.settledOn.set(id, night);
    }
  }
  // Nothing is left pending for good.
  expect(result.settledOn.size).toBe(pending.size);
  return result;
}

async function pendingBeforeWindow(db: string): Promise<Set<string>> {
  const rows = await queryDb(
    db,
    `SELECT id::VARCHAR AS id FROM api_calls
     WHERE completed_at IS NULL AND created_at < (SELECT max(created_at) FROM api_calls) - INTERVAL 3 DAY`,
  );
  return new Set(rows.map((row) => String(row.id)));
}

async function pendingIds(db: string): Promise<Set<string>> {
  const rows = await queryDb(db, "SELECT id::VARCHAR AS id FROM api_calls WHERE completed_at IS NULL");
  return new Set(rows.map((row) => String(row.id)));
}

describe("re-reads of calls pending billing back off per call", () => {
  test("nightly runs ask far less, and each late call is settled at most the wait cap later", async () => {
    // The run's clock a month later every night: every pending call is due every night, as when
    // each run re-read them all. The simulator's clock (and so its billing) moves a day a night in
    // both runs. The two run side by side (own simulator, own warehouse): while one waits on
    // DuckDB, the other's JavaScript runs.
    const [everyNight, backedOff] = await Promise.all([
      runNights((sim, night) => new Date(sim.clock.now().getTime() + night * 32 * DAY_MS)),
      runNights((sim) => sim.clock.now()),
    ]);

    // Every late call is settled by the re-reads in both, none more than the wait cap later.
    expect(backedOff.settledOn.size).toBe(everyNight.settledOn.size);
    for (const [id, night] of backedOff.settledOn) {
      const before = everyNight.settledOn.get(id) ?? 0;
      expect(night - before, `call ${id}`).toBeLessThanOrEqual(BACKOFF_CAP_DAYS);
    }
    expect(backedOff.nights).toBeLessThanOrEqual(everyNight.nights + BACKOFF_CAP_DAYS);
    // The re-reads settle the same calls (and the new late ones) for a fraction of the requests.
    expect(backedOff.settledByRereads).toBeGreaterThanOrEqual(everyNight.settledOn.size);
    expect(backedOff.rereadRequests).toBeLessThanOrEqual(everyNight.rereadRequests * 0.5);
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
