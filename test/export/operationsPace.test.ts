import { afterEach, describe, expect, test } from "vitest";
import { type RunningSimulator, startSimulator } from "../../src/sim/index.js";
import { runCli, testStop, whileRunning } from "../helpers/cli.js";
import { exportOnce, queryDb, tempWorkspace } from "../helpers/exportHarness.js";

/**
 * The pace of the operations phase (AdaptiveConcurrency) against a real simulator: it grows while
 * the API answers, and backs off when the API refuses with 429s, finishing the work either way.
 */
describe("operations phase pace", () => {
  let sim: RunningSimulator | undefined;
  afterEach(async () => {
    await sim?.close();
    sim = undefined;
  });

  async function exportWith(faults: { rate429?: number }) {
    sim = await startSimulator({
      seed: 5,
      calls: 1500,
      days: 3,
      users: 1,
      faults: { ...faults, retryAfterSeconds: 0, faultSeed: 3 },
    });
    const token = sim.users[0]?.token ?? "";
    const workspace = await tempWorkspace();
    try {
      const { summary, exitCode } = await exportOnce({
        baseUrl: sim.url,
        token,
        flags: { db: workspace.db, out: workspace.out, operationsConcurrency: 16 },
        maxAttempts: 12,
      });
      const [stored] = await queryDb(workspace.db, "SELECT count(*)::INTEGER AS n FROM async_operations");
      return { summary, exitCode, stored: Number(stored?.n) };
    } finally {
      await workspace.cleanup();
    }
  }

  test("without refusals the concurrency grows from its start toward the cap", async () => {
    const { summary, exitCode, stored } = await exportWith({});
    expect(exitCode).toBe(0);
    const pace = summary.operations?.concurrency;
    expect(pace?.start).toBe(4);
    expect(pace?.peak).toBeGreaterThan(4);
    expect(pace?.peak).toBeLessThanOrEqual(16);
    expect(stored).toBe(summary.operations?.fetched);
    expect(stored).toBeGreaterThan(100);
  });

  test("under a storm of 429s the phase completes and the concurrency comes down", async () => {
    const { summary, exitCode, stored } = await exportWith({ rate429: 0.3 });
    expect(exitCode).toBe(0);
    expect(summary.status).toBe("completed");
    expect(summary.retries).toBeGreaterThan(0);
    const pace = summary.operations?.concurrency;
    expect(pace?.start).toBe(4);
    expect(pace?.final).toBeLessThan(4);
    expect(stored).toBe(summary.operations?.fetched);
    expect(stored).toBeGreaterThan(100);
  });

  test("SIGINT mid-phase: stops with requests still held, every operation answered is committed, the next run finishes", async () => {
    sim = await startSimulator({ seed: 5, calls: 1500, days: 3, users: 1 });
    const env = { ZOO_API_TOKEN: sim.users[0]?.token ?? "", ZOO_HOST: sim.url };
    const workspace = await tempWorkspace();
    // One operation request at a time: when one is held, the run has every answer before it. The
    // stop comes at once (in-process); with more in flight it would abandon answers still on their
    // way, which the simulator counts as answered but the run never got.
    const args = [
      ...["export", "--db", workspace.db, "--out", workspace.out, "--json"],
      ...["--operations-concurrency", "1"],
    ];
    try {
      // 200 requests are answered (two list pages, then operations); every later one is held.
      const gate = sim.holdRequests(200);
      // The stop is sent as the process's first SIGINT would be.
      const stop = testStop();
      const run = runCli(args, { env, stop });
      let held = 0;
      try {
        await whileRunning(gate.reached, run, "an operation request was held");
        stop.send("SIGINT");
        const first = await run;
        held = gate.held;
        expect(first.code, first.stderr).toBe(130);
        // It stopped without waiting for its requests: they are held until released, below (an
        // event, where a stopwatch would fail on a busy machine; the test's time limit catches a
        // wait).
        expect(held).toBeGreaterThan(0);
      } finally {
        gate.release();
      }
      const answered = (sim.stats.byPath["/async/operations/{id}"] ?? 0) - held;
      expect(answered).toBeGreaterThan(100);
      const [stored] = await queryDb(workspace.db, "SELECT count(*)::INTEGER AS n FROM async_operations");
      expect(Number(stored?.n)).toBe(answered);
      const resumed = await runCli(args, { env });
      expect(resumed.code, resumed.stderr).toBe(0);
      const [after] = await queryDb(workspace.db, "SELECT count(*)::INTEGER AS n FROM async_operations");
      expect(Number(after?.n)).toBeGreaterThan(answered);
    } finally {
      await workspace.cleanup();
    }
  });
});
