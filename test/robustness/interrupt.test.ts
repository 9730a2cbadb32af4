import { afterAll, beforeAll, expect, test } from "vitest";
import { type RunningSimulator, startSimulator } from "../../src/sim/index.js";
import { runCli } from "../helpers/cli.js";
import { queryDb, tempWorkspace } from "../helpers/exportHarness.js";

/**
 * SIGINT and SIGTERM stop a run cleanly: the batch in hand commits, the exit code says
 * interrupted (130), and the next run resumes and ends equal to an uninterrupted run.
 */
let sim: RunningSimulator;
beforeAll(async () => {
  // Latency makes a run long enough to be interrupted mid-scan on any machine.
  sim = await startSimulator({ seed: 31, calls: 3000, days: 30, users: 1, faults: { latencyMs: 10 } });
});
afterAll(() => sim.close());

const snapshotSql =
  "SELECT (SELECT count(*)::INTEGER FROM api_calls) AS calls, (SELECT count(DISTINCT id)::INTEGER FROM api_calls) AS ids, (SELECT sum(price_usd)::VARCHAR FROM api_calls) AS total, (SELECT count(*)::INTEGER FROM async_operations) AS operations";

test.each(["SIGINT", "SIGTERM"] as const)(
  "%s: commits, exits 130, and the next run resumes to the same result",
  async (signal) => {
    const env = { ZOO_API_TOKEN: sim.users[0]?.token ?? "", ZOO_HOST: sim.url };
    const clean = await tempWorkspace();
    const interrupted = await tempWorkspace();
    try {
      const args = (w: { db: string; out: string }) => [
        "export",
        "--db",
        w.db,
        "--out",
        w.out,
        "--limit",
        "100",
        "--batch-records",
        "500",
        "--json",
      ];
      expect((await runCli(args(clean), { env })).code).toBe(0);
      const first = await runCli(args(interrupted), {
        env,
        onSpawn: (child) => {
          // Interrupt once the scan is under way (the first progress line).
          child.stderr?.once("data", () => setTimeout(() => child.kill(signal), 400));
        },
      });
      expect(first.code, first.stderr).toBe(130);
      expect(first.stderr).toMatch(new RegExp(`${signal}: stopping after the current batch commits`));
      const summary = JSON.parse(first.stdout) as { status: string; records_new: number };
      expect(summary.status).toBe("interrupted");
      const runs = await queryDb(interrupted.db, "SELECT status FROM runs");
      expect(runs).toEqual([{ status: "interrupted" }]);
      const resumed = await runCli(args(interrupted), { env });
      expect(resumed.code, resumed.stderr).toBe(0);
      expect((JSON.parse(resumed.stdout) as { scan_mode: string }).scan_mode).toBe("resume");
      expect(await queryDb(interrupted.db, snapshotSql)).toEqual(await queryDb(clean.db, snapshotSql));
    } finally {
      await clean.cleanup();
      await interrupted.cleanup();
    }
  },
);
