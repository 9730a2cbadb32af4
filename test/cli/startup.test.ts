import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { REPO_ROOT, runCli } from "../helpers/cli.js";
import { tempWorkspace } from "../helpers/exportHarness.js";

/**
 * `--version` and `--help` answer without loading DuckDB or a command's modules: each action loads
 * them when it runs. Checked by the modules the process resolves (a resolve hook records them), not
 * by timing; the start-up time itself is the benchmark's (bench/startup.mjs).
 */
const HOOK = path.join(REPO_ROOT, "test/helpers/recordModules.mjs");
let workspace: Awaited<ReturnType<typeof tempWorkspace>>;
beforeAll(async () => {
  workspace = await tempWorkspace();
});
afterAll(() => workspace.cleanup());

async function modulesLoadedBy(name: string, args: string[]) {
  const record = path.join(workspace.dir, `${name}.modules`);
  const result = await runCli(["--import", HOOK, "CLI", ...args], {
    shell: process.execPath,
    env: { RECORD_MODULES_TO: record },
    cwd: workspace.dir,
  });
  const modules = (await readFile(record, "utf8")).trim().split("\n");
  return { result, modules };
}

const dist = (modules: string[]) =>
  modules.filter((url) => url.includes("/dist/")).map((url) => url.replace(/^.*\/dist\//, ""));

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
  expect(dist(modules)).toContain("cli/program.js");
  expect(modules.filter((url) => url.includes("@duckdb"))).toEqual([]);
  // Nor the config schema (zod, a few hundred modules): the flags' tables and defaults need none.
  expect(modules.filter((url) => url.includes("/node_modules/zod/"))).toEqual([]);
  // Nor the modules of a command: they load when its action runs.
  const commandModules = [
    "cli/exportAction.js",
    "commands/export.js",
    "load/database.js",
    "load/duckdb.js",
    "report/runReport.js",
    "sim/index.js",
  ];
  expect(dist(modules).filter((file) => commandModules.includes(file))).toEqual([]);
});

test("a command that runs loads DuckDB: the record would show it", async () => {
  const { result, modules } = await modulesLoadedBy("print-config", ["export", "--print-config"]);
  expect(result.code, result.stderr).toBe(0);
  expect(modules.some((url) => url.includes("@duckdb/node-api"))).toBe(true);
});
