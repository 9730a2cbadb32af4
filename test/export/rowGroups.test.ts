import { afterAll, beforeAll, expect, test } from "vitest";
import type { ExportFlags } from "../../src/config/exportConfig.js";
import { type RunningSimulator, startSimulator } from "../../src/sim/index.js";
import { exportOnce, queryDb, tempWorkspace } from "../helpers/exportHarness.js";

/**
 * DuckDB puts the rows a session appends into a new row group after the table's last one on disk.
 * Unmerged, every nightly run would add a row group (and a 256 KB block) to each table it appends
 * to, and the file would grow every night by the same amount whatever the account's size.
 */
const DAY_MS = 86_400_000;
const NIGHTS = 6;
/** The tables every nightly run appends to, and none of which has an index (DuckDB merges only those). */
const APPENDED = ["api_calls", "balance_snapshots", "internal.page_ladder", "internal.own_calls"];

let sim: RunningSimulator;
let workspace: Awaited<ReturnType<typeof tempWorkspace>>;
beforeAll(async () => {
  sim = await startSimulator({
    seed: 41,
    calls: 400,
    days: 20,
    users: 1,
    now: new Date("2026-06-20T00:00:00Z"),
  });
  workspace = await tempWorkspace();
});
afterAll(async () => {
  await workspace.cleanup();
  await sim.close();
});

async function rowGroups(table: string): Promise<number> {
  const [row] = await queryDb(
    workspace.db,
    `SELECT count(DISTINCT row_group_id)::INTEGER AS groups FROM pragma_storage_info('${table}')`,
  );
  return Number(row?.groups);
}

async function usedBlocks(): Promise<number> {
  const [row] = await queryDb(
    workspace.db,
    "SELECT used_blocks::INTEGER AS used FROM pragma_database_size() WHERE database_name = current_database()",
  );
  return Number(row?.used);
}

test(`${NIGHTS} nightly runs leave each appended table a row group or two, and the file stops growing`, async () => {
  const token = sim.users[0]?.token ?? "";
  const flags: ExportFlags = { db: workspace.db, out: workspace.out, operations: false };
  const run = async () => {
    const result = await exportOnce({ baseUrl: sim.url, token, flags, now: () => sim.clock.now() });
    expect(result.exitCode).toBe(0);
    return result.summary;
  };
  await run();
  const blocksByNight: number[] = [];
  for (let night = 1; night <= NIGHTS; night++) {
    sim.clock.advance(DAY_MS);
    const summary = await run();
    // Each night appends to every one of these tables: a new day's calls, a balance snapshot, a
    // rung of the page ladder and the run's own requests.
    expect(summary.records_new, `night ${night}`).toBeGreaterThan(0);
    blocksByNight.push(await usedBlocks());
  }
  for (const table of APPENDED) {
    const [appended] = await queryDb(workspace.db, `SELECT count(*)::INTEGER AS n FROM ${table}`);
    expect(Number(appended?.n), table).toBeGreaterThan(NIGHTS);
    // Unmerged: one row group for the cold run's rows and one a night.
    expect(await rowGroups(table), table).toBeLessThanOrEqual(2);
  }
  // Blocks freed by the merges are used again: over the nights after the first the file gains fewer
  // blocks than nights (unmerged, it gains about four a night: one per appended table).
  const gained = (blocksByNight.at(-1) ?? 0) - (blocksByNight[0] ?? 0);
  expect(gained).toBeLessThan(NIGHTS - 1);
});
