import type { ChildProcess } from "node:child_process";
import { afterAll, beforeAll, expect, test } from "vitest";
import { type RunningSimulator, startSimulator } from "../../src/sim/index.js";
import { spawnCli, whileRunning } from "../helpers/cli.js";
import { queryDb, tempWorkspace } from "../helpers/exportHarness.js";

/**
 * A run killed outright (SIGKILL, an out-of-memory kill, a power cut) never writes its end: its
 * `runs` row says running. The next run, which holds the database alone, marks it crashed, so that
 * a dashboard over `runs` does not show a run in progress for ever.
 */
let sim: RunningSimulator;
let env: Record<string, string>;
beforeAll(async () => {
  sim = await startSimulator({ seed: 41, calls: 1500, days: 20, users: 1 });
  env = { ZOO_API_TOKEN: sim.users[0]?.token ?? "", ZOO_HOST: sim.url };
});
afterAll(async () => {
  await sim.close();
});

test("a killed run's row becomes crashed on the next run, which completes", async () => {
  const workspace = await tempWorkspace();
  const args = ["export", "--db", workspace.db, "--out", workspace.out, "--limit", "100", "--no-operations"];
  try {
    // The 4th request waits in the simulator: the run is killed mid-scan, after its row was written.
    const gate = sim.holdRequests(3);
    let child: ChildProcess | undefined;
    const killed = spawnCli(args, {
      env,
      timeoutMs: 60_000,
      onSpawn: (spawned) => {
        child = spawned;
      },
    });
    try {
      await whileRunning(gate.reached, killed, "its 4th request");
      child?.kill("SIGKILL");
      expect((await killed).signal).toBe("SIGKILL");
    } finally {
      gate.release();
    }
    const afterKill = await queryDb(workspace.db, "SELECT run_id, status FROM runs");
    expect(afterKill.map((row) => row.status)).toEqual(["running"]);

    const next = await spawnCli(args, { env, timeoutMs: 60_000 });
    expect(next.code, next.stderr).toBe(0);
    const runs = await queryDb(
      workspace.db,
      "SELECT run_id, status, message, finished_at IS NULL AS unfinished FROM runs ORDER BY started_at",
    );
    expect(runs.map((row) => row.status)).toEqual(["crashed", "completed"]);
    expect(runs[0]?.run_id).toBe(afterKill[0]?.run_id);
    expect(runs[0]?.unfinished).toBe(true);
    expect(String(runs[0]?.message)).toMatch(
      new RegExp(`ended without finishing .*run ${String(runs[1]?.run_id)} carried on`),
    );
  } finally {
    await workspace.cleanup();
  }
});
