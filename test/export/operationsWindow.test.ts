import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { isoTime } from "../../src/log/isoTime.js";
import { type RunningSimulator, startSimulator } from "../../src/sim/index.js";
import { OPERATION_STARTING_TEMPLATES } from "../../src/transform/operationRow.js";
import { runCli, testStop, whileRunning } from "../helpers/cli.js";
import { exportOnce, queryDb, tempWorkspace, writeDb } from "../helpers/exportHarness.js";

/**
 * The operations phase fetches, by default, the operations of calls created within
 * --operations-window of the run's clock plus every stored one not yet final; --operations all
 * fetches the rest, and an interrupted backfill goes on without asking again for what it stored.
 */
const DAY_MS = 86_400_000;
const SIM_NOW = new Date("2026-09-15T12:00:00Z");

let sim: RunningSimulator;
let token: string;
beforeAll(async () => {
  sim = await startSimulator({ seed: 23, calls: 3000, days: 90, users: 1, now: SIM_NOW });
  token = sim.users[0]?.token ?? "";
});
afterAll(async () => {
  await sim.close();
});

const operationGets = () => sim.stats.byPath["/async/operations/{id}"] ?? 0;

/** Calls that started an operation, as the exported rows show them: 2xx POSTs on a job route. */
const startingCalls = `SELECT id, created_at FROM api_calls WHERE method = 'POST' AND (status_code IS NULL OR status_code BETWEEN 200 AND 299) AND endpoint_template IN (${OPERATION_STARTING_TEMPLATES.map((t) => `'${t}'`).join(", ")})`;

async function countOf(db: string, sql: string): Promise<number> {
  const rows = await queryDb(db, `SELECT count(*)::INTEGER AS n FROM (${sql})`);
  return Number(rows[0]?.n);
}

/** Stored operations still queued, uploaded or running: fetched again whatever their age. */
const unfinishedSql =
  "SELECT id FROM async_operations WHERE fetch_status = 'found' AND status NOT IN ('completed', 'failed')";

describe("the operations window, measured from the run's clock", () => {
  const workspace = tempWorkspace();
  afterAll(async () => {
    await (await workspace).cleanup();
  });

  test("a first run fetches only the operations of calls created within the window", async () => {
    const { db, out } = await workspace;
    const before = operationGets();
    const { summary, exitCode } = await exportOnce({
      baseUrl: sim.url,
      token,
      flags: { db, out, operationsWindow: "35d" },
      now: () => sim.clock.now(),
    });
    expect(exitCode).toBe(0);
    const windowStart = isoTime(new Date(SIM_NOW.getTime() - 35 * DAY_MS));
    const inWindow = `${startingCalls} AND created_at >= TIMESTAMPTZ '${windowStart}'`;
    const expected = await countOf(db, inWindow);
    const all = await countOf(db, startingCalls);
    // 90 days of calls: the window holds some, not all, so the check below is not trivially true.
    expect(expected).toBeGreaterThan(300);
    expect(all - expected).toBeGreaterThan(300);
    expect(operationGets() - before).toBe(expected);
    expect(summary.operations).toMatchObject({
      fetched: expected,
      window_start: windowStart,
      skipped_outside_window: all - expected,
    });
    // Exactly the window's calls have an operation row.
    const missing = await countOf(db, `${inWindow} AND id NOT IN (SELECT id FROM async_operations)`);
    expect(missing).toBe(0);
    expect(await countOf(db, "SELECT id FROM async_operations")).toBe(expected);
  });

  test("--operations all fetches the rest of the history and the unfinished ones, nothing twice", async () => {
    const { db, out } = await workspace;
    const expected =
      (await countOf(db, `${startingCalls} AND id NOT IN (SELECT id FROM async_operations)`)) +
      (await countOf(db, unfinishedSql));
    const before = operationGets();
    const { summary, exitCode } = await exportOnce({
      baseUrl: sim.url,
      token,
      flags: { db, out, operations: "all" },
      now: () => sim.clock.now(),
    });
    expect(exitCode).toBe(0);
    expect(operationGets() - before).toBe(expected);
    expect(summary.operations).toMatchObject({ window_start: null, skipped_outside_window: 0 });
    expect(await countOf(db, `${startingCalls} AND id NOT IN (SELECT id FROM async_operations)`)).toBe(0);
  });

  test("40 days on: stored operations not yet final are fetched again although outside the window", async () => {
    const { db, out } = await workspace;
    // Jobs seen running by an earlier run: the oldest stored ones, far outside the next window.
    const oldest = "SELECT id FROM async_operations ORDER BY call_created_at, id LIMIT 20";
    await writeDb(db, `UPDATE async_operations SET status = 'in_progress' WHERE id IN (${oldest})`);
    const unfinished = await countOf(db, unfinishedSql);
    expect(unfinished).toBe(20);
    sim.clock.advance(40 * DAY_MS);
    const runClock = sim.clock.now();
    const windowStart = isoTime(new Date(runClock.getTime() - 35 * DAY_MS));
    const before = operationGets();
    const { summary, exitCode } = await exportOnce({
      baseUrl: sim.url,
      token,
      flags: { db, out, operationsWindow: "35d" },
      now: () => sim.clock.now(),
    });
    expect(exitCode).toBe(0);
    // Every stored operation is from before the window now; the window holds only new calls.
    const newInWindow = await countOf(db, `${startingCalls} AND created_at >= TIMESTAMPTZ '${windowStart}'`);
    expect(newInWindow).toBeGreaterThan(100);
    expect(operationGets() - before).toBe(unfinished + newInWindow);
    const skipped = await countOf(db, `${startingCalls} AND id NOT IN (SELECT id FROM async_operations)`);
    // The calls of the 5 days between the last run and the window start: new, and left out.
    expect(skipped).toBeGreaterThan(10);
    expect(summary.operations).toMatchObject({
      fetched: unfinished + newInWindow,
      window_start: windowStart,
      skipped_outside_window: skipped,
    });
    // The simulator has them finished: each was asked again and stored in its final state.
    expect(await countOf(db, `${unfinishedSql} AND id IN (${oldest})`)).toBe(0);
  });
});

test("an interrupted --operations all goes on next run without asking again for what it stored", async () => {
  const w = await tempWorkspace();
  try {
    const env = { ZOO_API_TOKEN: token, ZOO_HOST: sim.url };
    const args = ["export", "--db", w.db, "--out", w.out, "--operations", "all", "--json", "--no-summary"];
    // The 251st operation request waits in the simulator until the run has been stopped (as the
    // process's first SIGINT would stop it): the run is stopped mid-backfill, within its first
    // chunk of candidates, on a machine of any speed.
    let operationRequests = 0;
    const gate = sim.holdRequests(
      (request) => request.path.startsWith("/async/operations/") && ++operationRequests > 250,
    );
    const stop = testStop();
    const run = runCli(args, { env, stop });
    try {
      await whileRunning(gate.reached, run, "its 251st operation request");
      stop.send("SIGINT");
    } finally {
      gate.release();
    }
    const first = await run;
    expect(first.code, first.stderr).toBe(130);
    expect(first.stderr).toMatch(/SIGINT: stopping after the current batch commits/);
    const stored = await countOf(w.db, "SELECT id FROM async_operations");
    const all = await countOf(w.db, startingCalls);
    // What it fetched before the signal is committed, and it is far from everything.
    expect(stored).toBeGreaterThan(100);
    expect(stored).toBeLessThan(all / 2);
    const expected =
      (await countOf(w.db, `${startingCalls} AND id NOT IN (SELECT id FROM async_operations)`)) +
      (await countOf(w.db, unfinishedSql));
    expect(expected).toBeLessThan(all - 100);
    const before = operationGets();
    const resumed = await runCli(args, { env });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(operationGets() - before).toBe(expected);
    expect(await countOf(w.db, `${startingCalls} AND id NOT IN (SELECT id FROM async_operations)`)).toBe(0);
  } finally {
    await w.cleanup();
  }
});
