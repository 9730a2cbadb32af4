import { afterAll, beforeAll, expect, test } from "vitest";
import { describeRun } from "../../src/commands/export.js";
import { loadExportConfig } from "../../src/config/exportConfig.js";
import { type RunningSimulator, startSimulator } from "../../src/sim/index.js";
import type { RunSummary } from "../../src/sources/runSummary.js";
import { exportOnce, tempWorkspace } from "../helpers/exportHarness.js";

/**
 * The three account steps (spenders, invoices, balance) report in one shape, so a script reading
 * `--json` handles them alike, and their time is a phase of its own.
 */
let sim: RunningSimulator;
let summary: RunSummary;
let exitCode: number;
let cleanup: () => Promise<void>;
let db: string;

beforeAll(async () => {
  sim = await startSimulator({
    seed: 31,
    calls: 300,
    days: 30,
    users: 4,
    now: new Date("2026-06-20T00:00:00Z"),
  });
  const admin = sim.users.find((user) => user.orgRole === "admin");
  if (admin === undefined) throw new Error("the seed must give an org with an admin");
  const workspace = await tempWorkspace();
  cleanup = workspace.cleanup;
  db = workspace.db;
  const run = await exportOnce({
    baseUrl: sim.url,
    token: admin.token,
    flags: { db: workspace.db, out: workspace.out, limit: 100, operations: false, scope: "org" },
  });
  summary = run.summary;
  exitCode = run.exitCode;
});

afterAll(async () => {
  await cleanup?.();
  await sim?.close();
});

const SHARED = ["rejected", "seconds", "status"];

test("spenders, invoices and balance share status, rejected and seconds, plus their own counts", () => {
  expect(exitCode).toBe(0);
  const steps = { spenders: summary.spenders, invoices: summary.invoices, balance: summary.balance };
  const own = {
    spenders: ["api_tokens", "org_members", "service_accounts", "skipped_listings"],
    invoices: ["invoices", "lines", "new_invoices"],
    balance: ["remaining_usd", "snapshots"],
  };
  for (const [name, step] of Object.entries(steps)) {
    // Stored: no message, which is there only when a step was skipped or failed.
    expect(Object.keys(step ?? {}).sort(), name).toEqual(
      [...SHARED, ...own[name as keyof typeof own]].sort(),
    );
    expect(step?.status, name).toBe("stored");
    expect(step?.rejected, name).toBe(0);
    expect(step?.seconds, name).toBeGreaterThanOrEqual(0);
  }
  expect(summary.spenders?.skipped_listings).toEqual([]);
  expect(summary.balance?.snapshots).toBe(1);
});

test("the account steps have their own phase, and the phases fit in the run's seconds", () => {
  const phases = summary.phase_seconds;
  expect(Object.keys(phases)).toEqual(["prepare", "scan", "account", "operations", "parquet"]);
  expect(phases.account).toBeGreaterThan(0);
  const steps = [summary.spenders, summary.invoices, summary.balance];
  const stepSeconds = steps.reduce((total, step) => total + (step?.seconds ?? 0), 0);
  // The phase is measured around the three steps: it holds each one's seconds.
  expect(stepSeconds).toBeLessThanOrEqual(phases.account + 1e-9);
  const total = Object.values(phases).reduce((sum, seconds) => sum + seconds, 0);
  expect(total).toBeLessThanOrEqual(summary.seconds + 1e-9);
});

test("the human summary's time line names the account phase", () => {
  const config = loadExportConfig({ flags: { db, out: `${db}.out` }, env: {} });
  expect(describeRun(summary, config)).toMatch(
    /^ {2}time: prepare [\d.]+ s, scan [\d.]+ s, account [\d.]+ s, /m,
  );
});
