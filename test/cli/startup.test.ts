import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { REPO_ROOT, runCli } from "../helpers/cli.js";
import { tempWorkspace } from "../helpers/exportHarness.js";

/**
 * `--version` and `--help` of the CLI users run (the bundle) answer without loading DuckDB or a
 * command's chunks: each action loads them when it runs. Checked by the modules the process resolves (a resolve hook records them), not
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

/** The bundle's chunks (dist/bin/, scripts/bundle.mjs) that the run loaded. */
const chunks = (modules: string[]) =>
  modules.filter((url) => url.includes("/dist/bin/")).map((url) => url.replace(/^.*\/dist\/bin\//, ""));

/**
 * Chunks that hold a command's modules or zod, which load when an action runs. Each must exist, so
 * that a chunk renamed by a later build fails here instead of passing unseen.
 */
const COMMAND_CHUNKS = ["exportAction.js", "database.js", "runReport.js", "sim.js", "zod.js"];

test("the bundle has each command chunk the checks below name", async () => {
  const built = await readdir(path.join(REPO_ROOT, "dist/bin"));
  expect(COMMAND_CHUNKS.filter((chunk) => !built.includes(chunk))).toEqual([]);
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
  expect(chunks(modules)).toContain("program.js");
  expect(modules.filter((url) => url.includes("@duckdb"))).toEqual([]);
  // Nor the config schema (zod) or the modules of a command: they load when its action runs.
  expect(chunks(modules).filter((chunk) => COMMAND_CHUNKS.includes(chunk))).toEqual([]);
});

test("a command that runs loads DuckDB and its chunks: the record would show them", async () => {
  const { result, modules } = await modulesLoadedBy("print-config", ["export", "--print-config"]);
  expect(result.code, result.stderr).toBe(0);
  // DuckDB's JavaScript API is bundled into database.js; its native addon is a package of its own.
  expect(modules.some((url) => url.includes("@duckdb/node-bindings"))).toBe(true);
  expect(chunks(modules)).toEqual(expect.arrayContaining(["exportAction.js", "database.js", "zod.js"]));
});
