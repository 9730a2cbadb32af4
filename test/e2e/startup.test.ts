import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { ReportFigures } from "../../src/report/figures.js";
import { CLI, HANG_BOUND_MS, REPO_ROOT, requireBuiltCli, runCli, spawnCli } from "../helpers/cli.js";
import { tempWorkspace } from "../helpers/exportHarness.js";
import { buildWarehouse } from "../report/fixtures.js";

/**
 * The CLI users run (dist/bin/zoo-usage.js) as a process starts it: what it loads, how it meets a
 * stdout closed early, and what it takes from the machine (its time zone).
 *
 * `--version` and `--help` answer without loading DuckDB or a command's modules: each action loads
 * them when it runs, and an export loads its run only once its config holds. Checked by the modules
 * the process resolves (a resolve hook records them), not by timing; the start-up time itself is
 * the benchmark's (bench/startup.mjs).
 */
const HOOK = path.join(REPO_ROOT, "test/helpers/recordModules.mjs");
let workspace: Awaited<ReturnType<typeof tempWorkspace>>;
beforeAll(async () => {
  workspace = await tempWorkspace();
});
afterAll(() => workspace.cleanup());

async function modulesLoadedBy(name: string, args: string[], env: Record<string, string> = {}) {
  const record = path.join(workspace.dir, `${name}.modules`);
  const result = await spawnCli(["--import", HOOK, "CLI", ...args], {
    shell: process.execPath,
    env: { ...env, RECORD_MODULES_TO: record },
    cwd: workspace.dir,
  });
  const modules = (await readFile(record, "utf8")).trim().split("\n");
  return { result, modules };
}

/** The CLI's own modules (dist/) that the run loaded, as paths under dist/. */
const own = (modules: string[]) =>
  modules.filter((url) => url.includes("/dist/")).map((url) => url.replace(/^.*\/dist\//, ""));

/**
 * Modules of a command, which load when its action runs. Each must exist, so that a module renamed
 * later fails here instead of passing unseen.
 */
const COMMAND_MODULES = [
  "cli/exportAction.js",
  "load/database.js",
  "report/runReport.js",
  "sim/index.js",
  "config/exportConfig.js",
];
/** Modules of an export run (exportRun.ts and DuckDB), which load only once its config holds. */
const RUN_MODULES = ["cli/exportRun.js", "load/database.js"];

test("dist has each module the checks below name", () => {
  const missing = [...COMMAND_MODULES, ...RUN_MODULES].filter(
    (module) => !existsSync(path.join(REPO_ROOT, "dist", module)),
  );
  expect(missing).toEqual([]);
});

test.each([
  ["--version", ["--version"], /^\d+\.\d+\.\d+\n$/],
  ["help", ["--help"], /^Usage: zoo-usage \[options\] \[command\]\n[\s\S]*\n {2}export \[options\]/],
  ["export-help", ["export", "--help"], /^Usage: zoo-usage export \[options\]\n[\s\S]*\nExit codes:\n/],
  ["report-help", ["report", "--help"], /^Usage: zoo-usage report \[options\]\n/],
])("%s prints its text and loads no DuckDB module", async (name, args, text) => {
  const { result, modules } = await modulesLoadedBy(name, args);
  expect(result.code, result.stderr).toBe(0);
  expect(result.stdout).toMatch(text);
  // The hook saw the CLI load: the record is of this run.
  expect(own(modules)).toContain("cli/program.js");
  expect(modules.filter((url) => url.includes("@duckdb"))).toEqual([]);
  // Nor zod or the modules of a command: they load when its action runs.
  expect(modules.filter((url) => url.includes("/node_modules/zod/"))).toEqual([]);
  expect(own(modules).filter((module) => COMMAND_MODULES.includes(module))).toEqual([]);
});

test.each([
  ["print-config", ["export", "--print-config"], 0],
  // No ZOO_API_TOKEN in the run's environment: refused by the config, exit 2.
  ["missing-token", ["export"], 2],
])("export's %s answers from its config, without DuckDB or the run's modules", async (name, args, code) => {
  const { result, modules } = await modulesLoadedBy(name, args);
  expect(result.code, result.stderr).toBe(code);
  expect(own(modules)).toContain("cli/exportAction.js");
  expect(modules.filter((url) => url.includes("@duckdb"))).toEqual([]);
  expect(own(modules).filter((module) => RUN_MODULES.includes(module))).toEqual([]);
});

test("a run loads DuckDB and the run's modules: the record would show them", async () => {
  // No API answers on port 1: the run loads everything, then fails at its first request.
  const { result, modules } = await modulesLoadedBy("run", ["export", "--max-attempts", "1"], {
    ZOO_API_TOKEN: "startup-test-token",
    ZOO_HOST: "http://127.0.0.1:1",
  });
  expect(result.code, result.stderr).not.toBe(0);
  expect(modules.some((url) => url.includes("@duckdb/node-bindings"))).toBe(true);
  expect(own(modules)).toEqual(expect.arrayContaining(["cli/exportAction.js", ...RUN_MODULES]));
  expect(modules.some((url) => url.includes("/node_modules/zod/"))).toBe(true);
});

test("help read by a reader that stops early (`| head -1`) ends quietly, exit 0", async () => {
  requireBuiltCli();
  const child = spawn(process.execPath, [CLI, "export", "--help"], { stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  // The reader is gone before the help is written, as `head -1` is after its line: the writes have
  // nowhere to go.
  child.stdout.destroy();
  const timer = setTimeout(() => child.kill("SIGKILL"), HANG_BOUND_MS);
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  clearTimeout(timer);
  expect(stderr).toBe("");
  expect(code).toBe(0);
});

describe("the machine's time zone", () => {
  let fixture: Awaited<ReturnType<typeof buildWarehouse>>;
  beforeAll(async () => {
    fixture = await buildWarehouse({ seed: 12, calls: 3000, days: 40 });
  });
  afterAll(() => fixture.cleanup());

  test("changes nothing: days are UTC", async () => {
    const args = ["report", "--db", fixture.db, "--json", "--from", "2026-10-10"];
    // In-process, in this process's time zone (UTC: vitest.config.ts sets TZ); then a process of
    // its own in Auckland's: Node and DuckDB read the zone from the process's TZ, which an
    // in-process run's environment does not change.
    const utc = await runCli(args);
    expect(utc.code, utc.stderr).toBe(0);
    const auckland = await spawnCli(args, { env: { TZ: "Pacific/Auckland" } });
    expect(auckland.code, auckland.stderr).toBe(0);
    const strip = (text: string) => ({ ...(JSON.parse(text) as ReportFigures), generated_at: "" });
    expect(strip(auckland.stdout)).toEqual(strip(utc.stdout));
    expect(strip(utc.stdout).days[0]?.day).toBe("2026-10-10");
  });
});
