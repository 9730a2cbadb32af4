import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { REPO_ROOT, spawnCli } from "../helpers/cli.js";
import { tempWorkspace } from "../helpers/exportHarness.js";

/**
 * `--version` and `--help` of the CLI users run (dist/bin/zoo-usage.js) answer without loading
 * DuckDB or a command's modules: each action loads them when it runs, and an export loads its run
 * only once its config holds. Checked by the modules the process resolves (a resolve hook records
 * them), not by timing; the start-up time itself is the benchmark's (bench/startup.mjs).
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
