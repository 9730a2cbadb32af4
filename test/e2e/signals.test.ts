import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, expect, test } from "vitest";
import { type RunningSimulator, startSimulator } from "../../src/sim/index.js";
import { outputSeen, REPO_ROOT, runCli, spawnCli, whileRunning } from "../helpers/cli.js";
import { queryDb, tempWorkspace } from "../helpers/exportHarness.js";

/**
 * SIGINT and SIGTERM sent to the process of the built CLI stop a run cleanly: the batch in hand
 * commits, the exit code says interrupted (130), and the next run resumes and ends equal to an
 * uninterrupted run. Only the interrupted run is a process of its own: the signal must reach it as
 * the OS sends it. The reference and the resumed runs are in-process; so are the stops that need
 * no real signal (test/robustness/startupInterrupt.test.ts).
 */
let sim: RunningSimulator;
let env: Record<string, string>;
/** The reference: one uninterrupted run of the same command. */
let clean: Workspace;
beforeAll(async () => {
  sim = await startSimulator({ seed: 31, calls: 3000, days: 30, users: 1 });
  env = { ZOO_API_TOKEN: sim.users[0]?.token ?? "", ZOO_HOST: sim.url };
  clean = await tempWorkspace();
  const reference = await runCli(args(clean), { env });
  expect(reference.code, reference.stderr).toBe(0);
});
afterAll(async () => {
  await clean.cleanup();
  await sim.close();
});

type Workspace = Awaited<ReturnType<typeof tempWorkspace>>;

const args = (w: { db: string; out: string }) => [
  ...["export", "--db", w.db, "--out", w.out],
  ...["--limit", "100", "--batch-records", "500", "--json", "--operations", "all"],
];

const snapshotSql =
  "SELECT (SELECT count(*)::INTEGER FROM api_calls) AS calls, (SELECT count(DISTINCT id)::INTEGER FROM api_calls) AS ids, (SELECT sum(price_usd)::VARCHAR FROM api_calls) AS total, (SELECT count(*)::INTEGER FROM async_operations) AS operations";

test.each(["SIGINT", "SIGTERM"] as const)(
  "%s: commits, exits 130, and the next run resumes to the same result",
  async (signal) => {
    const interrupted = await tempWorkspace();
    try {
      // The 13th request waits in the simulator until the CLI has taken the signal, so the run is
      // interrupted mid-scan (12 pages of 100 read, batches of 500 committed) on a machine of any speed.
      const gate = sim.holdRequests(12);
      let child: ChildProcess | undefined;
      const run = spawnCli(args(interrupted), {
        env,
        timeoutMs: 60_000,
        onSpawn: (spawned) => {
          child = spawned;
        },
      });
      try {
        await whileRunning(gate.reached, run, "its 13th request");
        const stopping = outputSeen(child?.stderr ?? null, /stopping after the current batch commits/);
        child?.kill(signal);
        await whileRunning(stopping, run, `it took ${signal}`);
      } finally {
        gate.release();
      }
      const first = await run;
      expect(first.code, first.stderr).toBe(130);
      expect(first.stderr).toMatch(new RegExp(`${signal}: stopping after the current batch commits`));
      const summary = JSON.parse(first.stdout) as { status: string; records_new: number };
      expect(summary.status).toBe("interrupted");
      // Stopped mid-scan: what it read is committed, and the held page is the last it read.
      expect(summary.records_new).toBeGreaterThan(0);
      expect(summary.records_new).toBeLessThanOrEqual(1300);
      const runs = await queryDb(interrupted.db, "SELECT status FROM runs");
      expect(runs).toEqual([{ status: "interrupted" }]);
      const resumed = await runCli(args(interrupted), { env });
      expect(resumed.code, resumed.stderr).toBe(0);
      const resumedSummary = JSON.parse(resumed.stdout) as { scan_mode: string; records_new: number };
      expect(resumedSummary.scan_mode).toBe("resume");
      expect(resumedSummary.records_new).toBeGreaterThan(0);
      expect(await queryDb(interrupted.db, snapshotSql)).toEqual(await queryDb(clean.db, snapshotSql));
    } finally {
      await interrupted.cleanup();
    }
  },
);

/**
 * The listener the CLI starts before it loads the program, run in a process of its own: a signal
 * before the run takes over ends the process with 130 at once; after, the first asks the run to
 * stop and a second ends the process.
 */
async function listenerProcess(takeOver: boolean, signals: NodeJS.Signals[]) {
  const module = path.join(REPO_ROOT, "dist/cli/stopSignals.js");
  const script = [
    `const { listenForStop } = await import(${JSON.stringify(pathToFileURL(module).href)});`,
    "const stop = listenForStop((name) => process.stderr.write('before the run: ' + name + '\\n'));",
    takeOver
      ? "stop.takeOver({ first: (name) => process.stdout.write('stopping: ' + name + ' ' + stop.signal.aborted + '\\n'), beforeForcedExit: () => process.stderr.write('forced\\n') });"
      : "",
    "process.stdout.write('listening\\n');",
    "setInterval(() => {}, 1000);",
  ].join("\n");
  const child = spawn(process.execPath, ["--input-type=module", "-e", script], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (chunk) => {
    stderr += chunk;
  });
  const ended = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  await outputSeen(child.stdout, /listening/);
  for (const [k, signal] of signals.entries()) {
    const seen = k < signals.length - 1 ? outputSeen(child.stdout, /stopping: \w+ true/) : undefined;
    child.kill(signal);
    await seen;
  }
  return { code: await ended, stderr };
}

test.each(["SIGINT", "SIGTERM"] as const)(
  "%s before the run takes over: exit 130 at once, said on stderr",
  async (signal) => {
    const result = await listenerProcess(false, [signal]);
    expect(result).toEqual({ code: 130, stderr: `before the run: ${signal}\n` });
  },
);

test("after the run took over: the first signal aborts the run's signal, a second ends the process (130)", async () => {
  const result = await listenerProcess(true, ["SIGTERM", "SIGINT"]);
  expect(result).toEqual({ code: 130, stderr: "forced\n" });
});
