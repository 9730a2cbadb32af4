import { afterAll, beforeAll, expect, test } from "vitest";
import { type RunningSimulator, startSimulator } from "../../src/sim/index.js";
import { type CliResult, runCli, spawnCli, whileRunning } from "../helpers/cli.js";
import { queryDb, tempWorkspace } from "../helpers/exportHarness.js";

/**
 * Two exports contend for one database: the first runs as a process of its own, the second in this
 * one. DuckDB's lock on the file belongs to a process, so two runs in one process would not
 * contend; two processes do, as two cron jobs or a job and a person would. The reference run, which
 * contends with nothing, is in-process.
 */
let sim: RunningSimulator;
beforeAll(async () => {
  sim = await startSimulator({ seed: 71, calls: 2000, days: 10, users: 1 });
});
afterAll(() => sim.close());

const RESULT_SQL =
  "SELECT (SELECT count(*)::INTEGER FROM api_calls) AS calls, (SELECT count(DISTINCT id)::INTEGER FROM api_calls) AS ids, (SELECT sum(price_usd)::VARCHAR FROM api_calls) AS total, (SELECT count(*)::INTEGER FROM async_operations) AS operations";

test("two exports at once on one database: one runs, the other fails fast; the result equals one run", async () => {
  const env = { ZOO_API_TOKEN: sim.users[0]?.token ?? "", ZOO_HOST: sim.url };
  const reference = await tempWorkspace();
  const shared = await tempWorkspace();
  try {
    const args = (w: { db: string; out: string }) => [
      "export",
      "--db",
      w.db,
      "--out",
      w.out,
      "--limit",
      "100",
      "--operations",
      "all",
    ];
    expect((await runCli(args(reference), { env })).code).toBe(0);
    // The first export's 4th request waits in the simulator: by then the first certainly holds the
    // database (it opens it before any request) and is mid-scan, on a machine of any speed.
    const gate = sim.holdRequests(3);
    let firstDone = false;
    const first = spawnCli(args(shared), { env, timeoutMs: 60_000 }).then((result) => {
      firstDone = true;
      return result;
    });
    let second: CliResult;
    try {
      await whileRunning(gate.reached, first, "its 4th request");
      // Failing fast: the second gives up while the first waits on its held request. A second
      // that waited for the lock instead would wait forever (vitest's test timeout bounds that).
      second = await runCli(args(shared), { env });
      expect(firstDone).toBe(false);
      expect(gate.held).toBe(1);
    } finally {
      gate.release();
    }
    const firstResult = await first;
    expect(firstResult.code, firstResult.stderr).toBe(0);
    expect(second.code).toBe(6);
    expect(second.stderr).toMatch(/in use by another process \(PID \d+\)/);
    expect(await queryDb(shared.db, RESULT_SQL)).toEqual(await queryDb(reference.db, RESULT_SQL));
    const runs = await queryDb(shared.db, "SELECT status FROM runs");
    expect(runs).toEqual([{ status: "completed" }]);
  } finally {
    await reference.cleanup();
    await shared.cleanup();
  }
});
