import { existsSync } from "node:fs";
import { mkdir, readdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { runCli } from "../helpers/cli.js";
import { tempWorkspace } from "../helpers/exportHarness.js";

/**
 * A run refused before it starts, for its flags, its environment or its paths: with --json, stdout
 * is exactly one JSON line saying why (a cron job appending stdout to a file keeps one line a
 * run), stderr is the error and at most one hint line (never the whole help), and nothing is
 * created, not even a directory. The refusals come before any request, so no API is needed: the
 * base URL is a loopback port nothing listens on.
 */
const TOKEN = "t-refusals-0123456789";
const NOWHERE = "http://127.0.0.1:9";
/** A top-level directory that must never appear: a refused run may not make it. */
const ROOT_DIR = `/nonexistent-zoo-usage-${process.pid}`;

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempWorkspace());
  // A file where a directory is asked for: a path no one, root included, can create under.
  await writeFile(path.join(dir, "a-file"), "not a directory\n");
  // A dataset another database owns: a new --db may not take it over.
  await mkdir(path.join(dir, "owned"));
  await writeFile(
    path.join(dir, "owned", "_zoo_usage_owner.json"),
    JSON.stringify({ warehouse_id: "w-other", database: "/elsewhere/other.duckdb", claimed_at: "x" }),
  );
});
afterEach(async () => {
  await rm(ROOT_DIR, { recursive: true, force: true });
  await cleanup();
});

async function listing(): Promise<string[]> {
  return (await readdir(dir, { recursive: true })).map(String).sort();
}

interface Refusal {
  name: string;
  args: (dir: string) => string[];
  env?: Record<string, string>;
  exitCode: number;
  code: string;
  /** A commander error: the error line and the hint line only. */
  usage?: boolean;
  /** The error line's words, and the JSON line's hint, when they say more than the help's line. */
  says?: RegExp;
  hint?: RegExp;
}

const atRoot = ["--db", `${ROOT_DIR}/dir/x.duckdb`, "--out", `${ROOT_DIR}/pq`];
const REFUSALS: Refusal[] = [
  {
    name: "an unknown flag",
    args: () => ["export", "--bogus"],
    exitCode: 2,
    code: "config.invalid",
    usage: true,
  },
  {
    name: "a bad flag value",
    args: () => ["export", "--limit", "0", ...atRoot],
    exitCode: 2,
    code: "config.invalid",
    usage: true,
  },
  {
    name: "a bad choice",
    args: () => ["export", "--scope", "everyone", ...atRoot],
    exitCode: 2,
    code: "config.invalid",
    usage: true,
  },
  {
    name: "--json before the command",
    args: () => ["--json", "export"],
    exitCode: 2,
    code: "config.invalid",
    usage: true,
  },
  { name: "a mistyped command", args: () => ["exprot"], exitCode: 2, code: "config.invalid", usage: true },
  {
    name: "help of a command that does not exist",
    args: () => ["help", "exprot"],
    exitCode: 2,
    code: "config.invalid",
    usage: true,
  },
  { name: "no command", args: () => [], exitCode: 2, code: "config.invalid" },
  {
    name: "--json given a value",
    args: () => ["export", "--json=yes"],
    exitCode: 2,
    code: "config.invalid",
    usage: true,
  },
  {
    name: "a bad demo flag value",
    args: () => ["demo", "--calls", "0"],
    exitCode: 2,
    code: "config.invalid",
    usage: true,
  },
  {
    name: "a bad duration in the config",
    args: () => ["export", "--lookback", "3 weeks", ...atRoot],
    env: { ZOO_API_TOKEN: TOKEN, ZOO_HOST: NOWHERE },
    exitCode: 2,
    code: "config.invalid",
  },
  {
    name: "a missing token",
    args: () => ["export", ...atRoot],
    env: { ZOO_HOST: NOWHERE },
    exitCode: 2,
    code: "config.missing_token",
  },
  {
    name: "an insecure host from ZOO_HOST",
    args: () => ["export", ...atRoot],
    env: { ZOO_API_TOKEN: TOKEN, ZOO_HOST: "http://host.example:8080" },
    exitCode: 2,
    code: "config.insecure_transport",
  },
  {
    name: "an insecure --base-url",
    args: () => ["export", "--base-url", "http://host.example:8080", ...atRoot],
    env: { ZOO_API_TOKEN: TOKEN },
    exitCode: 2,
    code: "config.insecure_transport",
  },
  {
    name: "an unwritable --out, with a new --db in new directories",
    args: (dir) => ["export", "--out", `${dir}/a-file/pq`, "--db", `${ROOT_DIR}/dir/x.duckdb`],
    env: { ZOO_API_TOKEN: TOKEN, ZOO_HOST: NOWHERE },
    exitCode: 2,
    code: "output.unwritable",
  },
  {
    name: "the token as a flag: the variable it is read from is named",
    args: () => ["export", "--token", "abc"],
    exitCode: 2,
    code: "config.invalid",
    usage: true,
    says: /^error: unknown option '--token' \(the API token is read from ZOO_API_TOKEN in the environment/,
    hint: /^Export ZOO_API_TOKEN=<your token>/,
  },
  {
    name: "a blank ZOO_API_TOKEN, said blank rather than not set",
    args: () => ["export"],
    env: { ZOO_API_TOKEN: " ", ZOO_HOST: NOWHERE },
    exitCode: 2,
    code: "config.blank_token",
    says: /^error: ZOO_API_TOKEN is set but blank/,
    hint: /^Set ZOO_API_TOKEN to the token itself/,
  },
  {
    name: "an unwritable --db directory, with a new --out",
    args: (dir) => ["export", "--db", `${dir}/a-file/x.duckdb`, "--out", `${ROOT_DIR}/pq`],
    env: { ZOO_API_TOKEN: TOKEN, ZOO_HOST: NOWHERE },
    exitCode: 2,
    code: "output.unwritable",
  },
  {
    name: "the defaults (./zoo-usage) with an unwritable --db",
    args: (dir) => ["export", "--db", `${dir}/a-file/x.duckdb`],
    env: { ZOO_API_TOKEN: TOKEN, ZOO_HOST: NOWHERE },
    exitCode: 2,
    code: "output.unwritable",
  },
  {
    name: "a dataset another database owns, for a new --db in a new directory",
    args: (dir) => ["export", "--out", `${dir}/owned`, "--db", `${ROOT_DIR}/dir/x.duckdb`],
    env: { ZOO_API_TOKEN: TOKEN, ZOO_HOST: NOWHERE },
    exitCode: 2,
    code: "output.other_warehouse",
  },
];

describe("a refused run prints one JSON line, a short error, and creates nothing", () => {
  test.each(REFUSALS)("$name", async (refusal) => {
    const before = await listing();
    const result = await runCli([...refusal.args(dir), "--json"], { cwd: dir, env: refusal.env ?? {} });
    expect(result.code, result.stderr).toBe(refusal.exitCode);
    // stdout: exactly one line, one JSON object, its exit code the run's.
    expect(result.stdout.endsWith("\n"), result.stdout).toBe(true);
    const lines = result.stdout.slice(0, -1).split("\n");
    expect(lines, result.stdout).toHaveLength(1);
    const line = JSON.parse(lines[0] ?? "") as {
      status: string;
      exit_code: number;
      error: { code: string; hint?: string };
    };
    expect(line).toMatchObject({
      status: "failed",
      exit_code: refusal.exitCode,
      error: { code: refusal.code },
    });
    expect(result.stdout).not.toContain(TOKEN);
    // stderr: the error, never the help.
    expect(result.stderr).toMatch(/^error: /);
    expect(result.stderr).not.toMatch(/Usage:|Options:/);
    if (refusal.says !== undefined) expect(result.stderr).toMatch(refusal.says);
    // The JSON line has its hint, as the error on stderr has (a flag error's: the help's line).
    if (refusal.hint !== undefined) expect(line.error.hint).toMatch(refusal.hint);
    if (refusal.usage) {
      const stderrLines = result.stderr.trimEnd().split("\n");
      expect(stderrLines.length, result.stderr).toBeLessThanOrEqual(2);
      expect(stderrLines[1]).toMatch(
        /^hint: run `zoo-usage( export| demo)? --help` for the (flags|commands)$/,
      );
      if (refusal.hint === undefined) expect(`hint: ${line.error.hint}`).toBe(stderrLines[1]);
    }
    // Nothing created: not the default ./zoo-usage, not a directory of --db or --out.
    expect(await listing()).toEqual(before);
    expect(existsSync(ROOT_DIR)).toBe(false);
  });
});

describe("a usage error prints the error and one hint line, never the whole help", () => {
  test.each([
    [["export", "--jsno"], "error: unknown option '--jsno' (did you mean --json?)", "zoo-usage export"],
    [["export", "--limit", "x"], "error: option '--limit <n>' argument 'x' is invalid", "zoo-usage export"],
    [["report", "--tpo", "3"], "error: unknown option '--tpo' (did you mean one of", "zoo-usage report"],
    [["operation", "get", "x", "--bogus"], "error: unknown option '--bogus'", "zoo-usage operation get"],
    [["exprot"], "error: unknown command 'exprot' (did you mean export?)", "zoo-usage"],
    [["help", "exprot"], "error: unknown command 'exprot'", "zoo-usage"],
    [["operation", "gte"], "error: unknown command 'gte' (did you mean get?)", "zoo-usage operation"],
  ])("%j", async (args, error, command) => {
    const result = await runCli(args, { cwd: dir });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    const lines = result.stderr.trimEnd().split("\n");
    expect(lines, result.stderr).toHaveLength(2);
    expect(lines[0]).toContain(error);
    // A command with subcommands (zoo-usage, zoo-usage operation) lists them; the others, flags.
    const holds = ["zoo-usage", "zoo-usage operation"].includes(command) ? "the commands" : "the flags";
    expect(lines[1]).toBe(`hint: run \`${command} --help\` for ${holds}`);
  });

  test("with --log-format json, the error and the hint are one JSON object each", async () => {
    const result = await runCli(["export", "--xyzzy", "--log-format", "json"], { cwd: dir });
    expect(result.code).toBe(2);
    const lines = result.stderr.trimEnd().split("\n");
    expect(lines).toHaveLength(2);
    const messages = lines.map((line) => (JSON.parse(line) as { message: string }).message);
    expect(messages).toEqual([
      "error: unknown option '--xyzzy'",
      "hint: run `zoo-usage export --help` for the flags",
    ]);
  });
});
