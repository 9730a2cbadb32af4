import { afterAll, beforeAll, expect, test } from "vitest";
import { type RunningSimulator, startSimulator } from "../../src/sim/index.js";
import { toMicros } from "../helpers/apiTruth.js";
import { runCli } from "../helpers/cli.js";
import { exportOnce, queryDb, tempWorkspace, writeDb } from "../helpers/exportHarness.js";

/**
 * The report's "who spent it": per person and per token label in --json, the terminal and the page,
 * each list summing exactly to the period's spend; null on a database without call_token_match.
 */
let sim: RunningSimulator;
let workspace: Awaited<ReturnType<typeof tempWorkspace>>;
beforeAll(async () => {
  sim = await startSimulator({
    seed: 43,
    calls: 3000,
    days: 20,
    users: 5,
    priceMode: "adversarial",
    priceAsString: true,
  });
  workspace = await tempWorkspace();
  const admin = sim.users.find((user) => user.orgRole === "admin")?.token ?? "";
  const flags = { db: workspace.db, out: workspace.out, limit: 1000, scope: "org", operations: false };
  expect((await exportOnce({ baseUrl: sim.url, token: admin, flags })).exitCode).toBe(0);
});
afterAll(async () => {
  await sim.close();
  await workspace.cleanup();
});

interface Group {
  calls: number;
  cost_usd: string;
}

const sum = (rows: Group[]) => rows.reduce((total, row) => total + toMicros(row.cost_usd), 0n);

test("--json: spend per person and per token label sum exactly to the total", async () => {
  const result = await runCli(["report", "--db", workspace.db, "--json"]);
  expect(result.code, result.stderr).toBe(0);
  const figures = JSON.parse(result.stdout) as {
    totals: { calls: number; cost_usd: string };
    spenders: {
      per_member: (Group & { name: string | null; role: string })[];
      per_token_label: (Group & { match_status: string })[];
      token_match: { calls: number; matched_calls: number; ambiguous_calls: number; unmatched_calls: number };
    };
  };
  const { spenders, totals } = figures;
  expect(spenders.per_member.length).toBeGreaterThanOrEqual(3);
  expect(spenders.per_member.every((row) => row.name !== null)).toBe(true);
  expect(sum(spenders.per_member)).toBe(toMicros(totals.cost_usd));
  expect(sum(spenders.per_token_label)).toBe(toMicros(totals.cost_usd));
  expect(spenders.per_token_label.reduce((n, row) => n + row.calls, 0)).toBe(totals.calls);
  expect(new Set(spenders.per_token_label.map((row) => row.match_status))).toEqual(
    new Set(["matched", "ambiguous", "unmatched"]),
  );
  // The attribution's reach: matched, ambiguous and unmatched calls, as the groups count them.
  const callsOf = (status: string) =>
    spenders.per_token_label
      .filter((row) => row.match_status === status)
      .reduce((n, row) => n + row.calls, 0);
  expect(spenders.token_match).toEqual({
    calls: totals.calls,
    matched_calls: callsOf("matched"),
    ambiguous_calls: callsOf("ambiguous"),
    unmatched_calls: callsOf("unmatched"),
  });
  expect(spenders.token_match.matched_calls).toBeGreaterThan(0);
  // A period: its groups sum to its own total.
  const period = JSON.parse(
    (await runCli(["report", "--db", workspace.db, "--json", "--from", "2026-10-25"])).stdout,
  ) as typeof figures;
  expect(sum(period.spenders.per_member)).toBe(toMicros(period.totals.cost_usd));
  expect(period.totals.calls).toBeLessThan(totals.calls);
});

test("matched once per user, org and last 4, the groups are call_token_match's, call by call", async () => {
  const result = await runCli(["report", "--db", workspace.db, "--json"]);
  expect(result.code, result.stderr).toBe(0);
  const { spenders } = JSON.parse(result.stdout) as {
    spenders: {
      per_member: { user_id: string; calls: number; cost_usd: string }[];
      per_token_label: {
        match_status: string;
        token_kind: string | null;
        token_label: string | null;
        calls: number;
        cost_usd: string;
      }[];
    };
  };
  const perCall = await queryDb(
    workspace.db,
    `SELECT match_status, token_kind, token_label, count(*)::INTEGER AS calls,
       coalesce(sum(price_usd), 0)::DECIMAL(38, 6)::VARCHAR AS cost_usd
     FROM call_token_match GROUP BY ALL`,
  );
  const byLabel = (rows: readonly Record<string, unknown>[]) =>
    rows
      .map((row) => [
        `${row.match_status}|${row.token_kind}|${row.token_label}`,
        Number(row.calls),
        String(row.cost_usd),
      ])
      .sort();
  expect(byLabel(spenders.per_token_label)).toEqual(byLabel(perCall));
  const perMember = await queryDb(
    workspace.db,
    `SELECT user_id::VARCHAR AS user_id, count(*)::INTEGER AS calls,
       coalesce(sum(price_usd), 0)::DECIMAL(38, 6)::VARCHAR AS cost_usd
     FROM call_token_match GROUP BY user_id`,
  );
  const byMember = (rows: readonly Record<string, unknown>[]) =>
    rows.map((row) => [String(row.user_id), Number(row.calls), String(row.cost_usd)]).sort();
  expect(byMember(spenders.per_member)).toEqual(byMember(perMember));
});

test("the view keys each call on id; a view that names it call_id (older versions) reports the same", async () => {
  const columns = await queryDb(
    workspace.db,
    "SELECT column_name FROM duckdb_columns() WHERE table_name = 'call_token_match' AND column_name IN ('id', 'call_id')",
  );
  expect(columns).toEqual([{ column_name: "id" }]);
  const { copyFile, rm } = await import("node:fs/promises");
  const older = `${workspace.dir}/older.duckdb`;
  await copyFile(workspace.db, older);
  try {
    await writeDb(
      older,
      "CREATE TABLE saved_match AS SELECT * FROM call_token_match; CREATE OR REPLACE VIEW call_token_match AS SELECT * RENAME (id AS call_id) FROM saved_match;",
    );
    const spendersOf = async (db: string) => {
      const result = await runCli(["report", "--db", db, "--json"]);
      expect(result.code, result.stderr).toBe(0);
      return (JSON.parse(result.stdout) as { spenders: unknown }).spenders;
    };
    const current = await spendersOf(workspace.db);
    expect(current).not.toBeNull();
    expect(await spendersOf(older)).toEqual(current);
  } finally {
    await rm(older, { force: true });
  }
});

test("terminal and HTML show the block; an older database reports null", async () => {
  const terminal = await runCli(["report", "--db", workspace.db]);
  expect(terminal.stdout).toMatch(/spend per person\n/);
  expect(terminal.stdout).toMatch(/spend per token label\n[\s\S]*\(ambiguous: several tokens end alike\)/);
  expect(terminal.stdout).toMatch(/matched on the token's last 4 characters: \d+\.\d% of calls/);
  const page = `${workspace.dir}/report.html`;
  expect((await runCli(["report", "--db", workspace.db, "--html", page])).code).toBe(0);
  const { readFile } = await import("node:fs/promises");
  expect(await readFile(page, "utf8")).toContain("<h2>Who spent it</h2>");

  await writeDb(
    workspace.db,
    "DROP VIEW cost_per_token_label; DROP VIEW cost_per_service_account; DROP VIEW call_token_match;",
  );
  const old = await runCli(["report", "--db", workspace.db, "--json"]);
  expect(old.code, old.stderr).toBe(0);
  expect((JSON.parse(old.stdout) as { spenders: unknown }).spenders).toBeNull();
});
