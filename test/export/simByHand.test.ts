import { type ChildProcess, spawn } from "node:child_process";
import { afterEach, expect, test } from "vitest";
import { CLI, requireBuiltCli } from "../helpers/cli.js";
import { exportOnce, queryDb, tempWorkspace } from "../helpers/exportHarness.js";

/**
 * `zoo-usage sim` started by hand, with its defaults and the machine's clock, then exported twice a
 * few seconds apart as someone trying it out would: the credits' burn is within 2x of the account's
 * daily spend, and the runway is some days, not zero and not years.
 */
let sim: ChildProcess | undefined;
afterEach(() => {
  sim?.kill("SIGTERM");
  sim = undefined;
});

/** Starts the built `sim` on a free port; its URL and user 0's token, read from its banner. */
async function startSim(): Promise<{ url: string; token: string }> {
  requireBuiltCli();
  const child = spawn(process.execPath, [CLI, "sim", "--port", "0"], { stdio: ["ignore", "pipe", "pipe"] });
  sim = child;
  let banner = "";
  return await new Promise((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`sim exited ${code}: ${banner}`)));
    child.stdout?.on("data", (chunk) => {
      banner += chunk;
      const url = /listening on (http:\/\/\S+)/.exec(banner)?.[1];
      const token = /user 0: id \S+ {2}token (\S+)/.exec(banner)?.[1];
      if (url !== undefined && token !== undefined) resolve({ url, token });
    });
  });
}

test("sim by hand: burn within 2x of the daily spend, a runway of some days", async () => {
  const { url, token } = await startSim();
  const workspace = await tempWorkspace();
  try {
    const flags = { db: workspace.db, out: workspace.out, operations: false } as const;
    expect((await exportOnce({ baseUrl: url, token, flags })).exitCode).toBe(0);
    expect((await exportOnce({ baseUrl: url, token, flags })).exitCode).toBe(0);
    const [figures] = await queryDb(
      workspace.db,
      `SELECT r.burn_usd_per_day::DOUBLE AS burn, r.runway_days AS runway, r.burn_source AS source,
              (SELECT sum(price_usd) FROM api_calls WHERE created_at > r.taken_at - INTERVAL 30 DAY)::DOUBLE / 30 AS daily_spend
       FROM credit_runway AS r`,
    );
    const burn = Number(figures?.burn);
    const runway = Number(figures?.runway);
    const dailySpend = Number(figures?.daily_spend);
    expect(dailySpend).toBeGreaterThan(0);
    expect(burn / dailySpend).toBeGreaterThan(0.5);
    expect(burn / dailySpend).toBeLessThan(2);
    expect(runway).toBeGreaterThan(1);
    expect(runway).toBeLessThan(60);
  } finally {
    await workspace.cleanup();
  }
});
