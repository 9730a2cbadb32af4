import { execFile } from "node:child_process";
import { mkdir, rm } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type RunningSimulator, startSimulator } from "../../src/sim/index.js";
import { listAllCalls } from "../helpers/apiTruth.js";
import { type CliResult, runCli } from "../helpers/cli.js";
import { queryDb, tempWorkspace } from "../helpers/exportHarness.js";

const run = promisify(execFile);

let sim: RunningSimulator;
let env: Record<string, string>;
beforeAll(async () => {
  sim = await startSimulator({ seed: 53, calls: 8000, days: 10, users: 1 });
  env = { ZOO_API_TOKEN: sim.users[0]?.token ?? "", ZOO_HOST: sim.url };
});
afterAll(() => sim.close());

/** Small batches: each batch's spool file fits under the limit, the growing database does not. */
// Pages of 500 too: the spool files of a batch stay small, and the database is what fills the disk.
const EXPORT = ["export", "--no-operations", "--batch-records", "500", "--limit", "500"];

function expectStorageFailure(result: CliResult, db: string, why: RegExp, hint: RegExp): void {
  expect(result.code, result.stderr).toBe(2);
  expect(result.stderr).toContain(`error: Cannot write the database ${db}`);
  // DuckDB's own words: the checkpoint failed writing the database file.
  expect(result.stderr).toMatch(/checkpoint/i);
  expect(result.stderr).toMatch(why);
  expect(result.stderr).toMatch(hint);
  expect(result.stderr).toContain("code: output.unwritable");
  expect(result.stderr).not.toMatch(/unexpected failure/);
}

/** Once the disk has room again, the next run ends with every call the API lists. */
async function expectRecovery(db: string, out: string): Promise<void> {
  const truth = await listAllCalls(sim.url, env.ZOO_API_TOKEN ?? "");
  const again = await runCli(["export", "--db", db, "--out", out, "--no-operations"], { env });
  expect(again.code, again.stderr).toBe(0);
  const stored = new Set(
    (await queryDb(db, "SELECT id::VARCHAR AS id FROM api_calls")).map((row) => String(row.id)),
  );
  expect(truth.filter((call) => !stored.has(call.id))).toEqual([]);
}

// A file-size limit (ulimit -f), met the same way, is the process's own: test/e2e/processOutcomes.test.ts.
describe("the disk fills up while DuckDB checkpoints: exit 2 with the storage hint, then recovery", () => {
  test("a full file system (a 4 MB tmpfs; mounting one needs root)", async (context) => {
    const { dir, out, cleanup } = await tempWorkspace();
    const mountPoint = path.join(dir, "small-disk");
    await mkdir(mountPoint);
    try {
      try {
        await run("mount", ["-t", "tmpfs", "-o", "size=4m", "tmpfs", mountPoint], { timeout: 10_000 });
      } catch (error) {
        // Said in the run's list of skips, and a failure under CI (test/setup/skipGuard.ts).
        context.skip(
          `cannot mount a tmpfs here (not root, or no mount permission): ${(error as Error).message}`,
        );
      }
      try {
        const db = path.join(mountPoint, "zoo_usage.duckdb");
        // In this process: a run whose commit fails must close every file it holds there (the spool
        // of the batch it was filling too), or the umount below is refused as busy.
        const result = await runCli([...EXPORT, "--db", db, "--out", out], { env });
        expectStorageFailure(result, db, /No space left on device/, /hint: The disk is full/);
        await run("mount", ["-o", "remount,size=64m", mountPoint], { timeout: 10_000 });
        await expectRecovery(db, out);
      } finally {
        await run("umount", [mountPoint], { timeout: 10_000 });
      }
    } finally {
      await rm(mountPoint, { recursive: true, force: true });
      await cleanup();
    }
  });
});
