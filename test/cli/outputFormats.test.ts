import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { cents } from "../../src/report/cents.js";
import { type RunningSimulator, startSimulator } from "../../src/sim/index.js";
import { runCli } from "../helpers/cli.js";
import { queryDb, tempWorkspace } from "../helpers/exportHarness.js";

/** The one instant format of every command's output. */
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
/** A date followed by a time, in any form (DuckDB's "2026-10-19 21:10:16.4+00" included), in any text. */
const TIMESTAMP_LIKE = /\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2})?[^\s,;)"]*/g;
const SNAKE_CASE = /^[a-z][a-z0-9]*(_[a-z0-9]+)*$/;

/** Thousands grouped by hand, independently of the code under test: "1234.5" -> "1,234.5". */
function grouped(decimal: string): string {
  const [integer = "", fraction] = decimal.split(".");
  const digits = [...integer].reverse();
  const withCommas = digits.map((digit, index) => (index > 0 && index % 3 === 0 ? `${digit},` : digit));
  return `${withCommas.reverse().join("")}${fraction === undefined ? "" : `.${fraction}`}`;
}

/** Every key of a parsed JSON value, at every depth, with its path. */
function keysOf(value: unknown, at = "$"): string[] {
  if (Array.isArray(value)) return value.flatMap((item, index) => keysOf(item, `${at}[${index}]`));
  if (value === null || typeof value !== "object") return [];
  return Object.entries(value).flatMap(([key, inner]) => [`${at}.${key}`, ...keysOf(inner, `${at}.${key}`)]);
}

/** Every timestamp-looking text inside every string of a parsed JSON value (warnings included). */
function timestampsOf(value: unknown): string[] {
  if (typeof value === "string") return value.match(TIMESTAMP_LIKE) ?? [];
  if (Array.isArray(value)) return value.flatMap(timestampsOf);
  if (value === null || typeof value !== "object") return [];
  return Object.values(value).flatMap(timestampsOf);
}

/** Every value under a key naming USD (cost_usd, price_usd, cost_usd_so_far, ...), at every depth. */
function usdValuesOf(value: unknown): unknown[] {
  if (Array.isArray(value)) return value.flatMap(usdValuesOf);
  if (value === null || typeof value !== "object") return [];
  return Object.entries(value).flatMap(([key, inner]) =>
    /(^|_)usd(_|$)/.test(key) ? [inner] : usdValuesOf(inner),
  );
}

function expectOneFormat(json: unknown): void {
  const keys = keysOf(json);
  expect(keys.length).toBeGreaterThan(10);
  expect(keys.filter((key) => !SNAKE_CASE.test(key.slice(key.lastIndexOf(".") + 1)))).toEqual([]);
  const times = timestampsOf(json);
  expect(times.length).toBeGreaterThan(0);
  expect(times.filter((time) => !ISO_UTC.test(time))).toEqual([]);
}

describe("export, report and operation get print times, money and keys alike", () => {
  let sim: RunningSimulator;
  let env: Record<string, string>;
  const workspace = tempWorkspace();

  beforeAll(async () => {
    // Over 1,000 calls: the counts beside the amounts are grouped too.
    sim = await startSimulator({ seed: 19, calls: 3000, days: 40, users: 1, priceMode: "adversarial" });
    env = { ZOO_API_TOKEN: sim.users[0]?.token ?? "" };
  });
  afterAll(async () => {
    await sim.close();
    await (await workspace).cleanup();
  });

  test("export --json and report --json: every instant is ISO 8601 UTC with Z, every key snake_case", async () => {
    const { db, out } = await workspace;
    const exported = await runCli(["export", "--base-url", sim.url, "--db", db, "--out", out, "--json"], {
      env,
    });
    expect(exported.code, exported.stderr).toBe(0);
    const summary = JSON.parse(exported.stdout) as Record<string, Record<string, unknown> | undefined>;
    // The operations counts and the account steps are in the summary: their keys are checked, not absent.
    expect(summary.operations).toHaveProperty("not_found");
    expect(summary.spenders).toHaveProperty("skipped_listings");
    expect(summary.invoices).toHaveProperty("new_invoices");
    expect(summary.balance).toHaveProperty("remaining_usd");
    expect(summary.phase_seconds).toHaveProperty("account");
    expect(summary.operations?.window_start).toMatch(ISO_UTC);
    expectOneFormat(summary);

    const report = await runCli(["report", "--db", db, "--json"]);
    expect(report.code, report.stderr).toBe(0);
    const figures = JSON.parse(report.stdout) as unknown;
    expectOneFormat(figures);
    // Money in JSON: exact decimal strings with 6 places, never numbers.
    const amounts = usdValuesOf(figures);
    expect(amounts.length).toBeGreaterThan(10);
    expect(amounts.filter((amount) => typeof amount !== "string" || !/^-?\d+\.\d{6}$/.test(amount))).toEqual(
      [],
    );
  });

  test("operation get --from-db prints the stored instants in the same format", async () => {
    const { db } = await workspace;
    const [row] = await queryDb(
      db,
      "SELECT id::VARCHAR AS id FROM async_operations WHERE fetch_status = 'found' AND completed_at IS NOT NULL LIMIT 1",
    );
    expect(row?.id).toBeTypeOf("string");
    const json = await runCli(["operation", "get", String(row?.id), "--from-db", "--db", db, "--json"]);
    const fields = JSON.parse(json.stdout) as Record<string, unknown>;
    for (const column of ["call_created_at", "created_at", "started_at", "completed_at", "fetched_at"]) {
      expect(fields[column], column).toMatch(ISO_UTC);
    }
    const text = await runCli(["operation", "get", String(row?.id), "--from-db", "--db", db]);
    const times = text.stdout.match(TIMESTAMP_LIKE) ?? [];
    expect(times.length).toBeGreaterThanOrEqual(5);
    expect(times.filter((time) => !ISO_UTC.test(time))).toEqual([]);
  });

  test("the same instant prints identically after an export and in the report, the same amount in each one's format", async () => {
    const { db, out } = await workspace;
    const exported = await runCli(["export", "--base-url", sim.url, "--db", db, "--out", out], {
      env,
    });
    expect(exported.code, exported.stderr).toBe(0);
    const report = await runCli(["report", "--db", db]);
    expect(report.code, report.stderr).toBe(0);
    // The terminal text of both commands holds instants too (first and last call): the same format.
    for (const text of [exported.stdout, report.stdout]) {
      const times = text.match(TIMESTAMP_LIKE) ?? [];
      expect(times.length).toBeGreaterThanOrEqual(2);
      expect(times.filter((time) => !ISO_UTC.test(time))).toEqual([]);
    }
    const [truth] = await queryDb(
      db,
      "SELECT sum(price_usd)::VARCHAR AS cost, count(*)::INTEGER AS calls FROM api_calls",
    );
    // The export's summary: all 6 decimal places, thousands grouped. The report's human text: the
    // same amount to the cent, as all its amounts (exact in its --json).
    const cost = grouped(String(truth?.cost));
    expect(cost).toMatch(/^\d{1,3}(,\d{3})*\.\d{6}$/);
    expect(Number(truth?.calls)).toBeGreaterThan(1000);
    const calls = `USD over ${grouped(String(truth?.calls))} calls`;
    expect(exported.stdout).toContain(`spend: ${cost} ${calls}`);
    const reported = `${cents(String(truth?.cost))} ${calls}`;
    expect(report.stdout).toMatch(new RegExp(`^spend\\s+${reported.replace(/[.]/g, "\\.")}`, "m"));

    // The most expensive endpoint's amount, as each prints it.
    const [top] = await queryDb(db, "SELECT cost_usd::VARCHAR AS cost FROM cost_per_endpoint LIMIT 1");
    expect(exported.stdout).toContain(`${grouped(String(top?.cost))} USD`);
    const topCents = cents(String(top?.cost));
    expect(report.stdout).toMatch(new RegExp(`^\\s*${topCents.replace(/[.]/g, "\\.")}\\s`, "m"));
  });
});

describe("--print-config prints snake_case keys and the same redaction, in every command that has it", () => {
  /** The commands `--help` lists under "Commands:", its own `help` aside. */
  function commandsIn(help: string): string[] {
    const listed = help.split(/^Commands:\n/m)[1]?.split(/\n\n/)[0] ?? "";
    return [...listed.matchAll(/^ {2}(\S+)/gm)]
      .map((match) => match[1] ?? "")
      .filter((name) => name !== "help");
  }

  /** Every command of the CLI, subcommands included, as words of argv: ["operation", "get"]. */
  async function everyCommand(at: string[] = []): Promise<{ path: string[]; help: string }[]> {
    const result = await runCli([...at, "--help"]);
    expect(result.code, result.stderr).toBe(0);
    const subcommands = commandsIn(result.stdout);
    if (subcommands.length === 0) return [{ path: at, help: result.stdout }];
    const nested = await Promise.all(subcommands.map((name) => everyCommand([...at, name])));
    return nested.flat();
  }

  /** How each command with --print-config is run: both shapes of operation get. */
  const RUNS: Record<string, string[][]> = {
    export: [["export"]],
    "operation get": [
      ["operation", "get", "some-id"],
      ["operation", "get", "some-id", "--from-db"],
    ],
  };
  /** Where the secrets sit in a printed config. */
  const SECRETS = ["$.api.token", "$.export.secret_key"];

  function valueAt(json: unknown, at: string): unknown {
    return at
      .split(".")
      .slice(1)
      .reduce<unknown>((inner, key) => (inner as Record<string, unknown> | undefined)?.[key], json);
  }

  test("the commands that have it are the ones run here", async () => {
    const commands = await everyCommand();
    // The help was read: the commands it lists are found, subcommands included.
    expect(commands.map((command) => command.path.join(" "))).toEqual(
      expect.arrayContaining(["demo", "export", "operation get", "report", "sim"]),
    );
    const withIt = commands.filter((command) => command.help.includes("--print-config"));
    expect(withIt.map((command) => command.path.join(" ")).sort()).toEqual(Object.keys(RUNS).sort());
  });

  test.each(
    Object.values(RUNS)
      .flat()
      .map((args) => ({ args, name: args.join(" ") })),
  )("$name --print-config", async ({ args }) => {
    const secrets = { ZOO_API_TOKEN: "t-output-formats", ZOO_USAGE_SECRET_KEY: "5a".repeat(32) };
    for (const [env, shown] of [
      [secrets, "[redacted]"],
      [{}, null],
    ] as const) {
      const result = await runCli([...args, "--print-config"], { env });
      expect(result.code, result.stderr).toBe(0);
      const config = JSON.parse(result.stdout) as unknown;
      const keys = keysOf(config);
      expect(keys.length).toBeGreaterThan(3);
      expect(keys.filter((key) => !SNAKE_CASE.test(key.slice(key.lastIndexOf(".") + 1)))).toEqual([]);
      const present = SECRETS.filter((at) => keys.includes(at));
      expect(present.map((at) => valueAt(config, at))).toEqual(present.map(() => shown));
    }
  });
});
