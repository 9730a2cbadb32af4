import { type ChildProcess, spawn } from "node:child_process";
import { afterEach, describe, expect, test } from "vitest";
import { CLI, outputSeen, requireBuiltCli, runCli, spawnCli, whileRunning } from "../helpers/cli.js";
import { exportOnce, queryDb, tempWorkspace } from "../helpers/exportHarness.js";

/**
 * `zoo-usage sim` serves until SIGINT or SIGTERM, which it listens for on its process itself
 * (src/cli/simAction.ts), not through the stop a caller hands main: a server it starts is a process
 * of its own here, stopped with SIGTERM. A flag refused before it serves needs none.
 */

/** `zoo-usage sim` on a free port, stopped with SIGTERM once it has printed its banner. */
async function simBanner(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return spawnCli(["sim", "--port", "0", "--calls", "300", "--users", "2", ...args], {
    timeoutMs: 60_000,
    onSpawn: (child) => {
      void outputSeen(child.stdout, /Try:/).then(() => child.kill("SIGTERM"));
    },
  });
}

function simulatedNow(stdout: string): number {
  const iso = /simulated now: ([^\s,]+)/.exec(stdout)?.[1];
  if (iso === undefined) throw new Error(`no simulated now in: ${stdout}`);
  return Date.parse(iso);
}

describe("zoo-usage sim", () => {
  test("its clock starts at the machine's now, as the export's does", async () => {
    const before = Date.now();
    const result = await simBanner(["--tie-share", "0.2", "--invoice-items", "per-call", "--subscription"]);
    const after = Date.now();
    expect(result.code, result.stderr).toBe(0);
    const now = simulatedNow(result.stdout);
    expect(now).toBeGreaterThanOrEqual(before - 1000);
    expect(now).toBeLessThanOrEqual(after);
  });

  test("--now sets it", async () => {
    const result = await simBanner(["--now", "2026-03-04T05:06:07Z", "--invoice-statuses"]);
    expect(result.code, result.stderr).toBe(0);
    expect(simulatedNow(result.stdout)).toBe(Date.parse("2026-03-04T05:06:07Z"));
  });

  test("a bad billing flag is refused", async () => {
    const refused = await runCli([
      "sim",
      "--port",
      "0",
      "--calls",
      "300",
      "--users",
      "2",
      "--invoice-items",
      "per-week",
    ]);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/per-month, per-call/);
  });
});

test("the billing flags reach the simulator: every shape at once, as served over HTTP", async () => {
  let child: ChildProcess | undefined;
  let banner = "";
  const run = spawnCli(
    [
      "sim",
      "--port",
      "0",
      "--now",
      "2026-11-20T00:00:00Z",
      ...["--calls", "6000", "--days", "120", "--users", "4", "--seed", "11"],
      ...[
        "--invoice-items",
        "per-call",
        "--invoice-lines-limit",
        "2",
        "--subscription",
        "--invoice-statuses",
      ],
      ...["--credits-on-invoice", "discount", "--tie-share", "0.2"],
    ],
    {
      timeoutMs: 60_000,
      onSpawn: (spawned) => {
        child = spawned;
        spawned.stdout?.on("data", (chunk) => {
          banner += chunk;
        });
      },
    },
  );
  await whileRunning(outputSeen(child?.stdout ?? null, /Try:/), run, "the banner");
  try {
    const url = /listening on (\S+)/.exec(banner)?.[1];
    const token = /user 0: id \S+ +token (\S+)/.exec(banner)?.[1];
    const response = await fetch(`${url}/user/payment/invoices?limit=100`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const { items } = (await response.json()) as {
      items: { status: string; lines: unknown[]; subscription_id: string | null; discounts?: unknown[] }[];
    };
    expect(new Set(items.map((invoice) => invoice.status))).toEqual(
      new Set(["void", "paid", "uncollectible", "open", "draft"]),
    );
    for (const invoice of items) {
      expect(invoice.lines.length).toBeLessThanOrEqual(2);
      expect(invoice.subscription_id).toMatch(/^sub_1/);
    }
    expect(items.some((invoice) => (invoice.discounts ?? []).length === 1)).toBe(true);
  } finally {
    child?.kill("SIGTERM");
  }
  expect((await run).code).toBe(0);
});

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
