import type { ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { type RunningSimulator, startSimulator } from "../../src/sim/index.js";
import { runCli, spawnCli, whileRunning } from "../helpers/cli.js";
import { queryDb, tempWorkspace } from "../helpers/exportHarness.js";

/**
 * What the machine does to a run's process, which only a process of its own can show. A run killed
 * outright (SIGKILL, an out-of-memory kill, a power cut) never writes its end: its `runs` row says
 * running. The next run, which holds the database alone, marks it crashed, so that a dashboard over
 * `runs` does not show a run in progress for ever. A run whose writes the system refuses (a full
 * disk, as a file-size limit of the process) fails clearly and leaves what was stored as it was.
 * The runs around the one stopped are in-process.
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

    const next = await runCli(args, { env });
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

/** Hashes of every file under a directory, to prove a failed run left them untouched. */
async function fingerprint(dir: string): Promise<Record<string, string>> {
  const prints: Record<string, string> = {};
  for (const name of (await readdir(dir, { recursive: true })).map(String).sort()) {
    const file = path.join(dir, name);
    const bytes = await readFile(file).catch(() => undefined);
    if (bytes !== undefined) prints[name] = createHash("sha256").update(bytes).digest("hex");
  }
  return prints;
}

test("a full disk (a file-size limit): clear message, exit 2, database and Parquet untouched", async () => {
  const { db, out, dir, cleanup } = await tempWorkspace();
  // A token of its own, recognisable if the failure printed it.
  const ownSim = await startSimulator({
    seed: 51,
    calls: 1500,
    days: 10,
    users: 1,
    firstUserToken: "zoo-env-token-7c1e9a2b4d6f",
  });
  const ownEnv = { ZOO_API_TOKEN: ownSim.users[0]?.token ?? "", ZOO_HOST: ownSim.url };
  try {
    expect((await runCli(["export", "--db", db, "--out", out], { env: ownEnv })).code).toBe(0);
    const before = await fingerprint(dir);
    const rows = await queryDb(
      db,
      "SELECT count(*)::INTEGER AS n, sum(price_usd)::VARCHAR AS total FROM api_calls",
    );
    ownSim.clock.advance(5 * 86_400_000);
    // ulimit -f is in KiB: 64 KiB lets the process start but not spool the new batch.
    const result = await spawnCli(
      [
        "-c",
        `ulimit -f 64; exec "${process.execPath}" "$@"`,
        "bash",
        "CLI",
        "export",
        "--db",
        db,
        "--out",
        out,
      ],
      {
        env: ownEnv,
        shell: "/bin/bash",
      },
    );
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toMatch(/Cannot write .*(File too large|EFBIG)/);
    expect(result.stderr).toMatch(/hint: /);
    expect(result.stderr).not.toMatch(/at .*\.js:\d+/);
    expect(`${result.stdout}${result.stderr}`).not.toContain(ownEnv.ZOO_API_TOKEN);
    expect(
      await queryDb(db, "SELECT count(*)::INTEGER AS n, sum(price_usd)::VARCHAR AS total FROM api_calls"),
    ).toEqual(rows);
    const after = await fingerprint(dir);
    for (const [name, print] of Object.entries(before)) {
      if (name.startsWith("parquet")) expect(after[name], name).toBe(print);
    }
  } finally {
    await ownSim.close();
    await cleanup();
  }
});
