import { afterAll, beforeAll, expect, test } from "vitest";
import { type RunningSimulator, startSimulator } from "../../src/sim/index.js";
import { runCli } from "../helpers/cli.js";
import { queryDb, tempWorkspace } from "../helpers/exportHarness.js";

let sim: RunningSimulator;
beforeAll(async () => {
  // Latency keeps the first export busy long enough for the second to collide with it.
  sim = await startSimulator({ seed: 71, calls: 2000, days: 10, users: 1, faults: { latencyMs: 20 } });
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
    ];
    expect((await runCli(args(reference), { env })).code).toBe(0);
    let firstDone = false;
    const first = runCli(args(shared), { env }).then((result) => {
      firstDone = true;
      return result;
    });
    // Start the second while the first holds the database (the first takes seconds under latency).
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const second = await runCli(args(shared), { env });
    // Failing fast: the second gave up while the first was still working, without waiting for it.
    expect(firstDone).toBe(false);
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
}, 120_000);
