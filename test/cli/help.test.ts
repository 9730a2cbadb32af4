import path from "node:path";
import { describe, expect, test } from "vitest";
import { loadApiConfig, TOKEN_ENV_VARS } from "../../src/config/apiConfig.js";
import { demoCommandConfig, operationGetCommandConfig } from "../../src/config/commandConfig.js";
import { parseDuration } from "../../src/config/duration.js";
import { loadExportConfig } from "../../src/config/exportConfig.js";
import { loadReportConfig } from "../../src/config/reportConfig.js";
import { ExitCode } from "../../src/errors.js";
import { SIM_DEFAULTS } from "../../src/sim/defaults.js";
import { runCli } from "../helpers/cli.js";

/** `--help` of the CLI, checked to end well. */
async function help(args: string[]): Promise<string> {
  const result = await runCli([...args, "--help"]);
  expect(result.stderr).toBe("");
  expect(result.code).toBe(0);
  return result.stdout;
}

/**
 * Each option of a help text, by its long flag, with its description unwrapped (commander wraps
 * descriptions onto indented lines) and the default it shows, if any.
 */
function optionsOf(helpText: string): Map<string, { text: string; shown: string | undefined }> {
  const section = helpText.split(/^Options:\n/m)[1]?.split(/^\S/m)[0] ?? "";
  const entries: string[] = [];
  for (const line of section.split("\n")) {
    if (/^ {2}-/.test(line)) entries.push(line.trim());
    else if (/^ {3,}\S/.test(line) && entries.length > 0) entries[entries.length - 1] += ` ${line.trim()}`;
  }
  const options = new Map<string, { text: string; shown: string | undefined }>();
  for (const text of entries) {
    const flag = /--[a-z0-9-]+/.exec(text)?.[0];
    if (flag === undefined) throw new Error(`no long flag in ${text}`);
    const shown = /default: ("[^"]*"|[^()]*?)\)/.exec(text)?.[1]?.replace(/^"(.*)"$/, "$1");
    options.set(flag, { text, shown });
  }
  return options;
}

/** The default a flag shows; fails when it shows none. */
function shownDefault(options: ReturnType<typeof optionsOf>, flag: string): string {
  const shown = options.get(flag)?.shown;
  if (shown === undefined) throw new Error(`${flag} shows no default: ${options.get(flag)?.text}`);
  return shown;
}

/** The path after ", else " in a default that names a variable first. */
function pathAfterVariable(shown: string, variable: string): string {
  const prefix = `$${variable}, else `;
  expect(shown.startsWith(prefix), `${shown} names ${variable}`).toBe(true);
  return path.resolve(shown.slice(prefix.length));
}

/**
 * Every option taking a value shows a default, except these, which have none (off unless given);
 * an option added later without a default in its help fails here until it shows one.
 */
const WITHOUT_DEFAULT = new Set(["--save-outputs", "--html"]);

function expectEveryValueOptionShowsDefault(options: ReturnType<typeof optionsOf>): void {
  for (const [flag, { text, shown }] of options) {
    if (!/<[^>]+>/.test(text) || WITHOUT_DEFAULT.has(flag)) continue;
    expect(shown, `${flag} shows its default: ${text}`).toBeDefined();
  }
}

function expectLinesWithin(helpText: string, columns: number): void {
  const long = helpText.split("\n").filter((line) => line.length > columns);
  expect(long).toEqual([]);
}

/** The API flags' shown defaults against what the loader gives with no flag and no variable. */
function expectApiDefaults(options: ReturnType<typeof optionsOf>): void {
  const api = loadApiConfig({ flags: {}, env: {} });
  const baseUrl = shownDefault(options, "--base-url");
  expect(baseUrl.startsWith("$ZOO_HOST, else ")).toBe(true);
  expect(new URL(baseUrl.slice("$ZOO_HOST, else ".length)).href).toBe(api.baseUrl.href);
  expect(Number(shownDefault(options, "--max-attempts"))).toBe(api.retry.maxAttempts);
  expect(Number(shownDefault(options, "--max-retry-wait")) * 1000).toBe(api.retry.maxTotalWaitMs);
  expect(Number(shownDefault(options, "--request-timeout")) * 1000).toBe(api.requestTimeoutMs);
  expect(Number(shownDefault(options, "--max-response-mb")) * 1024 * 1024).toBe(api.maxResponseBytes);
}

/** The export flags' shown defaults against an export config loaded with no flag. */
function expectExportDefaults(
  options: ReturnType<typeof optionsOf>,
  config: ReturnType<typeof loadExportConfig>,
  readsEnv: boolean,
): void {
  const shownPath = (flag: string, variable: string) =>
    readsEnv
      ? pathAfterVariable(shownDefault(options, flag), variable)
      : path.resolve(shownDefault(options, flag));
  expect(shownPath("--db", "ZOO_USAGE_DB")).toBe(config.dbPath);
  expect(shownPath("--out", "ZOO_USAGE_OUT")).toBe(config.outDir);
  expect(Number(shownDefault(options, "--limit"))).toBe(config.limit);
  expect(parseDuration(shownDefault(options, "--lookback"), "--lookback")).toBe(config.lookbackMs);
  expect(shownDefault(options, "--partition")).toBe(config.partitioning);
  expect(shownDefault(options, "--duration-unit")).toBe(config.durationUnit);
  expect(shownDefault(options, "--token-column")).toBe(config.privacy.token);
  expect(shownDefault(options, "--email-column")).toBe(config.privacy.email);
  expect(shownDefault(options, "--ip-address-column")).toBe(config.privacy.ipAddress);
  expect(Number(shownDefault(options, "--max-price"))).toBe(config.maxPriceUsd);
  expect(Number(shownDefault(options, "--batch-records"))).toBe(config.batchRecords);
  // The window mode by default: operations on, over the window shown.
  expect(shownDefault(options, "--operations")).toBe("window");
  expect(config.operations).toBe(true);
  const window = shownDefault(options, "--operations-window");
  expect(parseDuration(window, "--operations-window")).toBe(config.operationsWindowMs);
  expect(Number(shownDefault(options, "--operations-concurrency"))).toBe(config.operationsConcurrency);
  expect(Number(shownDefault(options, "--max-pending-rereads"))).toBe(config.maxPendingRereads);
}

describe("--help shows the defaults the config applies", () => {
  test("export: defaults, the token variables, the exit codes, two examples, short lines", async () => {
    const text = await help(["export"]);
    const options = optionsOf(text);
    expectExportDefaults(options, loadExportConfig({ flags: {}, env: {} }), true);
    expectApiDefaults(options);
    expectEveryValueOptionShowsDefault(options);
    for (const name of [...TOKEN_ENV_VARS, "ZOO_HOST", "ZOO_USAGE_DB", "ZOO_USAGE_OUT"]) {
      expect(text).toContain(name);
    }
    const exitCodes = text.split(/^Exit codes:\n/m)[1]?.split(/^\S/m)[0] ?? "";
    for (const code of Object.values(ExitCode)) {
      expect(exitCodes).toMatch(new RegExp(`^ {2}${code} +\\S`, "m"));
    }
    const examples = text.split(/^Examples:\n/m)[1] ?? "";
    expect(examples.match(/^ {2}(?:[A-Z_]+=\S+ )?zoo-usage export/gm)?.length).toBe(2);
    expectLinesWithin(text, 100);
    // The summary names what a run stores beside the calls.
    const summary = text.split("Options:")[0]?.replace(/\s+/g, " ") ?? "";
    for (const part of ["API calls", "invoices", "credits balance"]) expect(summary, part).toContain(part);
  });

  test("demo: the export defaults without variables (the demo reads none), and --calls", async () => {
    const text = await help(["demo"]);
    const options = optionsOf(text);
    // A variable set for real exports does not move the demo's database: the help names none.
    const config = demoCommandConfig({
      flags: {},
      env: { ZOO_USAGE_DB: "/elsewhere/real.duckdb", ZOO_USAGE_OUT: "/elsewhere/parquet" },
    });
    expectExportDefaults(options, config.export, false);
    expect(Number(shownDefault(options, "--calls"))).toBe(config.calls);
    expectEveryValueOptionShowsDefault(options);
    expectLinesWithin(text, 100);
  });

  test("report", async () => {
    const text = await help(["report"]);
    const options = optionsOf(text);
    const config = loadReportConfig({ flags: {}, env: {} });
    expect(pathAfterVariable(shownDefault(options, "--db"), "ZOO_USAGE_DB")).toBe(config.dbPath);
    expect(Number(shownDefault(options, "--top"))).toBe(config.top);
    // No day given: the period runs from the first call to the last.
    expect(config.from).toBeNull();
    expect(shownDefault(options, "--from")).toBe("the first call");
    expect(config.to).toBeNull();
    expect(shownDefault(options, "--to")).toBe("the last call");
    expectEveryValueOptionShowsDefault(options);
    expectLinesWithin(text, 100);
    // The summary names every part the report shows.
    const summary = text.split("Options:")[0]?.replace(/\s+/g, " ") ?? "";
    for (const part of ["month", "day", "endpoint", "pending billing", "rejects", "invoices", "credits"])
      expect(summary, part).toContain(part);
  });

  test("operation get", async () => {
    const text = await help(["operation", "get"]);
    const options = optionsOf(text);
    const config = operationGetCommandConfig({ id: "x", flags: {}, env: {} });
    if (!("api" in config)) throw new Error("expected the API form");
    expect(Number(shownDefault(options, "--timeout")) * 1000).toBe(config.operation.timeoutMs);
    const fromDb = operationGetCommandConfig({ id: "x", flags: { fromDb: true }, env: {} });
    if (!("warehouse" in fromDb)) throw new Error("expected the warehouse form");
    expect(pathAfterVariable(shownDefault(options, "--db"), "ZOO_USAGE_DB")).toBe(fromDb.warehouse.dbPath);
    expectApiDefaults(options);
    expectEveryValueOptionShowsDefault(options);
    expectLinesWithin(text, 100);
  });

  test("sim: commander's defaults and the simulator's own", async () => {
    const text = await help(["sim"]);
    const options = optionsOf(text);
    expect(shownDefault(options, "--now")).toBe(SIM_DEFAULTS.simNow);
    expect(Number(shownDefault(options, "--late-billing"))).toBe(SIM_DEFAULTS.lateBillingShare);
    expect(Number(shownDefault(options, "--latency-ms"))).toBe(SIM_DEFAULTS.latencyMs);
    for (const flag of ["--rate-429", "--rate-5xx", "--rate-reset", "--rate-truncated"]) {
      expect(Number(shownDefault(options, flag))).toBe(SIM_DEFAULTS.faultRate);
    }
    expect(Number(shownDefault(options, "--retry-after"))).toBe(SIM_DEFAULTS.retryAfterSeconds);
    expect(Number(shownDefault(options, "--fault-seed"))).toBe(SIM_DEFAULTS.faultSeed);
    expect(shownDefault(options, "--price-mode")).toBe("realistic");
    expect(Number(shownDefault(options, "--port"))).toBe(8080);
    expectEveryValueOptionShowsDefault(options);
    expectLinesWithin(text, 100);
  });

  test("the top-level help fits too", async () => {
    expectLinesWithin(await help([]), 100);
  });
});

test("the top-level help lists export first, then the others, and points to the demo and the docs", async () => {
  const text = await help([]);
  const commands = [...(text.split(/^Commands:\n/m)[1]?.split(/\n\n/)[0] ?? "").matchAll(/^ {2}(\w+)/gm)].map(
    (match) => match[1],
  );
  expect(commands).toEqual(["export", "report", "check", "demo", "operation", "sim", "help"]);
  const after = text.split(/^Start here:\n/m)[1] ?? "";
  expect(after).toMatch(/^ {2}zoo-usage demo +an export of a simulated account/m);
  expect(after).toMatch(/^ {2}zoo-usage export +your account's, with ZOO_API_TOKEN set/m);
  expect(after).toContain("docs/tutorial.md");
  expectLinesWithin(text, 80);
});
