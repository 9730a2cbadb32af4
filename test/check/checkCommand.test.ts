import { existsSync } from "node:fs";
import { copyFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type RunningSimulator, startSimulator } from "../../src/sim/index.js";
import { runCli } from "../helpers/cli.js";
import { queryDb, tempWorkspace, writeDb } from "../helpers/exportHarness.js";
import { simHistory } from "../helpers/simHistory.js";

/**
 * `zoo-usage check` and `export --check` as cron runs them, through the CLI (in-process): exit
 * codes (0 quiet, 1 an alert, 2 a config error naming the line and field), JSON and people lines,
 * and an alert reported once a day (recorded in internal.alert_state) unless --all.
 */
let history: { db: string; cleanup: () => Promise<void> };
let workspace: Awaited<ReturnType<typeof tempWorkspace>>;

beforeAll(async () => {
  history = await simHistory({ seed: 1, calls: 5_000, days: 60 });
  workspace = await tempWorkspace();
});

afterAll(async () => {
  await history.cleanup();
  await workspace.cleanup();
});

describe("zoo-usage check", () => {
  test("a rules file with a bad field is a config error (2) naming the line and the field", async () => {
    const rules = path.join(workspace.dir, "bad.conf");
    await writeFile(rules, "# nightly\nbudget usd=500 actual=80\nspike factor=three\n");
    const result = await runCli(["check", "--db", history.db, "--rules", rules]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("bad.conf line 3: spike: factor must be a non-negative number");
    expect(result.stdout).toBe("");
  });

  test("a rules file's label with ESC and BEL is shown escaped in the alert line", async () => {
    const rules = path.join(workspace.dir, "labels.conf");
    await writeFile(rules, 'token-budget label="CI\u001b[31m\u0007" usd=0\n');
    const result = await runCli(["check", "--db", history.db, "--rules", rules, "--all"]);
    expect(result.code, result.stderr).toBe(1);
    expect(result.stdout).toContain("token-budget: CI\\x1b[31m\\x07,");
    expect(result.stdout).not.toContain("\u0007");
    expect(result.stdout).not.toContain("\u001b");
  });

  test("no rule at all is a config error too", async () => {
    const result = await runCli(["check", "--db", history.db]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("no rule to check");
  });

  test("nothing fires: exit 0, nothing printed (cron mails nothing)", async () => {
    const result = await runCli([
      "check",
      "--db",
      history.db,
      "--stale-hours",
      "26",
      "--now",
      "2026-11-01T02:00:00Z",
    ]);
    expect(result).toMatchObject({ code: 0, stdout: "" });
  });

  test("rollups a stopped export left behind: check warns, then judges as before", async () => {
    const db = path.join(workspace.dir, "lagging.duckdb");
    await copyFile(history.db, db);
    await writeDb(
      db,
      "INSERT INTO internal.stale_class_days SELECT DISTINCT created_day FROM api_calls LIMIT 3",
    );
    const args = ["check", "--db", db, "--stale-hours", "26", "--now", "2026-11-01T02:00:00Z"];
    const result = await runCli(args);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(
      /3 UTC days of calls changed since their rollups were made .*zoo-usage export/,
    );
    expect((await runCli(["check", "--db", history.db, ...args.slice(3)])).stderr).not.toMatch(/rollups/);
  });

  test("an alert is reported once a day: JSON line, then quiet, --all again, the next day again", async () => {
    const at = (now: string, ...more: string[]) =>
      runCli(["check", "--db", history.db, "--stale-hours", "26", "--json", ...more], {
        now: () => new Date(now),
      });
    const first = await at("2026-11-02T06:00:00Z");
    expect(first.code).toBe(1);
    expect(
      first.stdout
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line)),
    ).toEqual([
      {
        rule: "stale",
        subject: "export",
        value: "30.0",
        threshold: "26",
        period: "2026-11-01T00:00:00Z",
        unit: "hours",
        note: "the last completed run ended 2026-11-01 00:00 UTC",
      },
    ]);
    expect(await queryDb(history.db, "SELECT rule, value FROM internal.alert_state")).toEqual([
      { rule: "stale", value: "30.0" },
    ]);
    // Two hours on: 32.0 hours is a move of 6.7%, under the 10% step.
    expect(await at("2026-11-02T08:00:00Z")).toMatchObject({ code: 0, stdout: "" });
    expect((await at("2026-11-02T08:00:00Z", "--all")).code).toBe(1);
    // Four hours on, 34.0 is 13% above what was reported: reported again.
    expect((await at("2026-11-02T10:00:00Z")).code).toBe(1);
    const nextDay = await runCli(["check", "--db", history.db, "--stale-hours", "26"], {
      now: () => new Date("2026-11-03T06:00:00Z"),
    });
    expect(nextDay.code).toBe(1);
    expect(nextDay.stdout.trim()).toBe(
      "stale: export, 2026-11-01T00:00:00Z: 54.0 hours reaches 26 hours (the last completed run ended 2026-11-01 00:00 UTC)",
    );
  });

  test("--now previews, past or future, record nothing: the real check reports as without them", async () => {
    const previewed = path.join(workspace.dir, "previewed.duckdb");
    const untouched = path.join(workspace.dir, "untouched.duckdb");
    await copyFile(history.db, previewed);
    await copyFile(history.db, untouched);
    const check = (db: string, now: string, ...more: string[]) =>
      runCli(["check", "--db", db, "--stale-hours", "26", "--budget", "1", "--json", ...more], {
        now: () => new Date(now),
      });
    const state = async () =>
      JSON.stringify(await queryDb(previewed, "SELECT * FROM internal.alert_state ORDER BY ALL"));
    // Both databases hold what a real check of the night reported.
    expect((await check(previewed, "2026-11-02T06:00:00Z")).code).toBe(1);
    expect((await check(untouched, "2026-11-02T06:00:00Z")).code).toBe(1);
    const before = await state();
    expect(before).not.toBe("[]");
    // A past night and a future night, previewed on the same day: they report, and record nothing.
    expect((await check(previewed, "2026-11-02T07:00:00Z", "--now", "2026-10-20")).code).toBe(1);
    expect((await check(previewed, "2026-11-02T07:00:00Z", "--now", "2026-11-05T06:00:00Z")).code).toBe(1);
    expect(await state()).toBe(before);
    for (const later of ["2026-11-02T12:00:00Z", "2026-11-05T06:00:00Z"]) {
      const real = await check(previewed, later);
      const without = await check(untouched, later);
      expect(real.stdout).not.toBe("");
      expect({ code: real.code, stdout: real.stdout }).toEqual({
        code: without.code,
        stdout: without.stdout,
      });
    }
  });

  test("--backtest replays October: the export started after its last day ended, so it is complete", async () => {
    const result = await runCli(["check", "--db", history.db, "--backtest"]);
    expect(result.code).toBe(0);
    const lines = result.stdout.trim().split("\n");
    expect(lines[0]).toMatch(/^\| history \| months \| error day 7 /);
    expect(lines[2]).toMatch(
      /^\| 2026-10 to 2026-10 \| 1 \| [\d.]+% \| [\d.]+% \| [\d.]+% \| \d+% \/ \d+% \/ \d+% \| - \| \d+ \|$/,
    );
    expect(lines[3]).toMatch(/^spike alerts replayed \(x3 the same weekday, at least 10 USD\) on 31 days: /);
  });
});

describe("export --check", () => {
  let sim: RunningSimulator;
  beforeAll(async () => {
    sim = await startSimulator({ seed: 7, calls: 3_000, days: 90, users: 1, invoiceDisagreement: true });
  });
  afterAll(async () => {
    await sim.close();
  });

  test("bad rules stop the export before it starts (2); good ones run after it, its alert exits 1", async () => {
    const env = { ZOO_API_TOKEN: sim.users[0]?.token ?? "" };
    const db = path.join(workspace.dir, "export-check.duckdb");
    const out = path.join(workspace.dir, "export-check");
    const bad = path.join(workspace.dir, "bad-export.conf");
    await writeFile(bad, "stale hour=26\n");
    const refused = await runCli(
      ["export", "--base-url", sim.url, "--db", db, "--out", out, "--check", bad],
      { env },
    );
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("bad-export.conf line 1: stale: unknown field hour");
    expect(existsSync(db)).toBe(false);
    const rules = path.join(workspace.dir, "nightly.conf");
    await writeFile(rules, "invoice-difference usd=0\nstale hours=26\n");
    const result = await runCli(
      ["export", "--base-url", sim.url, "--db", db, "--out", out, "--check", rules, "--json"],
      { env },
    );
    expect(result.code).toBe(1);
    const lines = result.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    // The run's line carries the process's exit code: 1, for the check's alert.
    expect(lines[0]).toMatchObject({ status: "completed", exit_code: 1 });
    expect(lines.slice(1)).toEqual([
      expect.objectContaining({ rule: "invoice-difference", value: "1.230000", threshold: "0.000000" }),
    ]);
  });
});
