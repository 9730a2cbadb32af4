import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { REPO_ROOT, runCli } from "../helpers/cli.js";
import { tempWorkspace } from "../helpers/exportHarness.js";

/**
 * `--version` and `--help` of the CLI users run (the bundle) answer without loading DuckDB or a
 * command's chunks: each action loads them when it runs, and an export loads its run only once its
 * config holds. Checked by the modules the process resolves (a resolve hook records them), not by
 * timing; the start-up time itself is the benchmark's (bench/startup.mjs).
 */
const HOOK = path.join(REPO_ROOT, "test/helpers/recordModules.mjs");
let workspace: Awaited<ReturnType<typeof tempWorkspace>>;
beforeAll(async () => {
  workspace = await tempWorkspace();
});
afterAll(() => workspace.cleanup());

async function modulesLoadedBy(name: string, args: string[], env: Record<string, string> = {}) {
  const record = path.join(workspace.dir, `${name}.modules`);
  const result = await runCli(["--import", HOOK, "CLI", ...args], {
    shell: process.execPath,
    env: { ...env, RECORD_MODULES_TO: record },
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
const COMMAND_CHUNKS = ["exportAction.cjs", "database.cjs", "runReport.cjs", "sim.cjs", "zod.cjs"];
/** Chunks of an export run (exportRun.ts and DuckDB), which load only once its config holds. */
const RUN_CHUNKS = ["exportRun.cjs", "database.cjs"];

test("the bundle has each command chunk the checks below name", async () => {
  const built = await readdir(path.join(REPO_ROOT, "dist/bin"));
  expect([...COMMAND_CHUNKS, ...RUN_CHUNKS].filter((chunk) => !built.includes(chunk))).toEqual([]);
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
  expect(chunks(modules)).toContain("program.cjs");
  expect(modules.filter((url) => url.includes("@duckdb"))).toEqual([]);
  // Nor the config schema (zod) or the modules of a command: they load when its action runs.
  expect(chunks(modules).filter((chunk) => COMMAND_CHUNKS.includes(chunk))).toEqual([]);
});

test.each([
  ["print-config", ["export", "--print-config"], 0],
  // No ZOO_API_TOKEN in the run's environment: refused by the config, exit 2.
  ["missing-token", ["export"], 2],
])("export's %s answers from its config, without DuckDB or the run's modules", async (name, args, code) => {
  const { result, modules } = await modulesLoadedBy(name, args);
  expect(result.code, result.stderr).toBe(code);
  expect(chunks(modules)).toContain("exportAction.cjs");
  expect(modules.filter((url) => url.includes("@duckdb"))).toEqual([]);
  expect(chunks(modules).filter((chunk) => RUN_CHUNKS.includes(chunk))).toEqual([]);
});

test("a run loads DuckDB and the run's chunks: the record would show them", async () => {
  // No API answers on port 1: the run loads everything, then fails at its first request.
  const { result, modules } = await modulesLoadedBy("run", ["export", "--max-attempts", "1"], {
    ZOO_API_TOKEN: "startup-test-token",
    ZOO_HOST: "http://127.0.0.1:1",
  });
  expect(result.code, result.stderr).not.toBe(0);
  // DuckDB's JavaScript API is bundled into database.cjs; its native addon is a package of its own.
  expect(modules.some((url) => url.includes("@duckdb/node-bindings"))).toBe(true);
  expect(chunks(modules)).toEqual(expect.arrayContaining(["exportAction.cjs", ...RUN_CHUNKS, "zod.cjs"]));
});
