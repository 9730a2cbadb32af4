import { createHash } from "node:crypto";
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type RunningSimulator, startSimulator } from "../../src/sim/index.js";
import { type CliResult, runCli } from "../helpers/cli.js";
import { queryDb, tempWorkspace } from "../helpers/exportHarness.js";
import { readDataset } from "../helpers/parquetDataset.js";

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

let sim: RunningSimulator;
let env: Record<string, string>;
beforeAll(async () => {
  sim = await startSimulator({
    seed: 51,
    calls: 1500,
    days: 10,
    users: 1,
    firstUserToken: "zoo-env-token-7c1e9a2b4d6f",
  });
  env = { ZOO_API_TOKEN: sim.users[0]?.token ?? "", ZOO_HOST: sim.url };
});
afterAll(() => sim.close());

function expectClearFailure(result: CliResult, code: number, message: RegExp): void {
  expect(result.code, result.stderr).toBe(code);
  expect(result.stderr).toMatch(message);
  expect(result.stderr).toMatch(/hint: /);
  // No stack frame, of the built .js or of the .ts this in-process run loads.
  expect(result.stderr).not.toMatch(/at .*\.[cm]?[jt]s:\d+/);
  expect(`${result.stdout}${result.stderr}`).not.toContain(env.ZOO_API_TOKEN);
}

describe("bad arguments and environment: a clear message, a non-zero exit, nothing touched", () => {
  test.each([
    ["no token", [], false, /No API token.*ZOO_API_TOKEN/],
    ["a malformed base URL", ["--base-url", "http//nope"], true, /not a valid URL/],
    ["plain http to a remote host", ["--base-url", "http://example.com"], true, /over plain http/],
    ["a bad --lookback", ["--lookback", "soon"], true, /--lookback "soon" is not a duration/],
    ["a page size above the API's maximum", ["--limit", "20000"], true, /limit/],
    ["an unknown flag", ["--frobnicate"], true, /unknown option/],
  ])("%s", async (_, args, withToken, message) => {
    const { db, out, dir, cleanup } = await tempWorkspace();
    try {
      const environment = withToken ? env : { ZOO_HOST: sim.url };
      const result = await runCli(["export", "--db", db, "--out", out, ...args], { env: environment });
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(message);
      expect(await readdir(dir)).toEqual([]);
    } finally {
      await cleanup();
    }
  });

  test("an output path that cannot be written: fails before the database changes", async () => {
    const { db, out, dir, cleanup } = await tempWorkspace();
    try {
      expect((await runCli(["export", "--db", db, "--out", out], { env })).code).toBe(0);
      const before = await fingerprint(dir);
      const blocker = path.join(dir, "a-file");
      await writeFile(blocker, "not a directory");
      sim.clock.advance(3_600_000);
      const result = await runCli(["export", "--db", db, "--out", path.join(blocker, "parquet")], { env });
      expectClearFailure(result, 2, /Cannot write to .*a-file\/parquet \(--out\)/);
      expect(await fingerprint(dir)).toEqual({ ...before, "a-file": expect.any(String) });
    } finally {
      await cleanup();
    }
  });

  test("a database file that is not DuckDB is left byte for byte as it was", async () => {
    const { dir, out, cleanup } = await tempWorkspace();
    try {
      const db = path.join(dir, "notes.duckdb");
      await writeFile(db, "these are my notes, not a database\n");
      const before = await fingerprint(dir);
      const result = await runCli(["export", "--db", db, "--out", out], { env });
      expectClearFailure(result, 2, /notes\.duckdb" is not a DuckDB database: it looks like a text file/);
      const after = await fingerprint(dir);
      expect(after["notes.duckdb"]).toBe(before["notes.duckdb"]);
      expect(
        Object.keys(after).filter((name) => name !== "notes.duckdb" && !name.startsWith("parquet")),
      ).toEqual([]);
    } finally {
      await cleanup();
    }
  });

  test("paths with spaces, quotes and SQL in them are used as paths, never as SQL", async () => {
    const { dir, cleanup } = await tempWorkspace();
    try {
      const hostile = path.join(dir, `it's "my" data; DROP TABLE api_calls; --`);
      await mkdir(hostile, { recursive: true });
      const db = path.join(hostile, `zoo'usage".duckdb`);
      const out = path.join(hostile, `parquet ') TO '/tmp/x`);
      const result = await runCli(["export", "--db", db, "--out", out, "--json", "--no-operations"], {
        env,
      });
      expect(result.code, result.stderr).toBe(0);
      const stored = await queryDb(db, "SELECT count(*)::INTEGER AS n FROM api_calls");
      expect(stored[0]?.n).toBe((JSON.parse(result.stdout) as { records_new: number }).records_new);
      expect((await readDataset(path.join(out, "api_calls"))).rows.length).toBe(stored[0]?.n);
      const report = await runCli(["report", "--db", db, "--json"], { env });
      expect(report.code, report.stderr).toBe(0);
    } finally {
      await cleanup();
    }
  });
});
