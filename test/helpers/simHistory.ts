import path from "node:path";
import { type SimulatorOptions, startSimulator } from "../../src/sim/index.js";
import { exportOnce, tempWorkspace } from "./exportHarness.js";

/**
 * A warehouse holding a simulated account's history: one user (so the export holds every call),
 * exported once at the simulator's clock, without the operations (which the check never reads).
 */
export async function simHistory(
  options: SimulatorOptions,
): Promise<{ db: string; cleanup: () => Promise<void> }> {
  const workspace = await tempWorkspace();
  const sim = await startSimulator({ users: 1, ...options });
  try {
    const user = sim.users[0];
    if (user === undefined) throw new Error("the simulator has no user");
    const db = path.join(workspace.dir, "usage.duckdb");
    await exportOnce({
      baseUrl: sim.url,
      token: user.token,
      flags: { db, out: path.join(workspace.dir, "out"), operations: false },
      // The run's clock is the simulator's: the balance snapshot and the run are dated in its history.
      now: () => sim.clock.now(),
    });
    return { db, cleanup: workspace.cleanup };
  } finally {
    await sim.close();
  }
}
