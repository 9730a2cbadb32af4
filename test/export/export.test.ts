import { readdir, rm, stat } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type RunningSimulator, startSimulator } from "../../src/sim/index.js";
import { listAllCalls, sumsByDay, type TruthCall, toMicros } from "../helpers/apiTruth.js";
import { type CountingProxy, startCountingProxy } from "../helpers/countingProxy.js";
import { exportOnce, queryDb, tempWorkspace } from "../helpers/exportHarness.js";
import { microsOf, parquetCodecs, parquetColumnTypes, readDataset } from "../helpers/parquetDataset.js";

const DAY_MS = 86_400_000;
const LIMIT = 500;

/** "dataset/partition" -> mtime of its file, over both datasets, to see which partitions a run rewrote. */
async function partitionTimes(out: string): Promise<Map<string, number>> {
  const times = new Map<string, number>();
  for (const dataset of ["api_calls", "async_operations"]) {
    const dir = path.join(out, dataset);
    for (const partition of await readdir(dir).catch(() => [] as string[])) {
      times.set(`${dataset}/${partition}`, (await stat(path.join(dir, partition, "data.parquet"))).mtimeMs);
    }
  }
  return times;
}

async function expectWarehouseEqualsApi(db: string, out: string, truth: TruthCall[]): Promise<void> {
  const rows = await queryDb(
    db,
    "SELECT id::VARCHAR AS id, price_usd::VARCHAR AS price, updated_at FROM api_calls",
  );
  expect(rows.length).toBe(truth.length);
  const stored = new Map(
    rows.map((row) => [String(row.id), row.price === null ? null : toMicros(String(row.price))]),
  );
  for (const call of truth) {
    expect(stored.has(call.id), `call ${call.id} missing`).toBe(true);
    expect(stored.get(call.id), `price of ${call.id}`).toBe(
      call.price === null ? null : toMicros(call.price),
    );
  }
  // View totals equal the exact sums per UTC day computed from the API.
  const perDay = await queryDb(
    db,
    "SELECT strftime(day, '%Y-%m-%d') AS day, calls, cost_usd::VARCHAR AS cost FROM cost_per_day",
  );
  const expected = sumsByDay(truth);
  expect(perDay.length).toBe(expected.size);
  for (const row of perDay)
    expect(toMicros(String(row.cost)), String(row.day)).toBe(expected.get(String(row.day)));
  // The Parquet dataset, read by another reader, equals the table.
  const dataset = await readDataset(path.join(out, "api_calls"));
  expect(dataset.rows.length).toBe(truth.length);
  const parquetIds = new Set(dataset.rows.map((row) => String(row.id)));
  expect(parquetIds.size).toBe(truth.length);
  for (const row of dataset.rows)
    expect(microsOf(row.price_usd), String(row.id)).toBe(stored.get(String(row.id)));
}

describe("export against the simulator", () => {
  let sim: RunningSimulator;
  // After the cold run the exporter runs on the simulator's clock: "a day later" is a day for both,
  // as it is for a nightly job and the API (re-reads of calls pending billing wait by that clock).
  const simNow = () => sim.clock.now();
  let proxy: CountingProxy;
  let token: string;
  const workspace = tempWorkspace();

  beforeAll(async () => {
    sim = await startSimulator({ seed: 7, calls: 6000, days: 30, users: 2, priceMode: "adversarial" });
    token = sim.users[0]?.token ?? "";
    proxy = await startCountingProxy(sim.url);
  });
  afterAll(async () => {
    await proxy.close();
    await sim.close();
    await (await workspace).cleanup();
  });

  test("a cold run stores every visible call once, exact to the micro-dollar, in DuckDB and Parquet", async () => {
    const { db, out } = await workspace;
    // On the wall clock: the phases are timed by the run's clock, and the simulator's stands still.
    const { summary, exitCode } = await exportOnce({
      baseUrl: proxy.url,
      token,
      flags: { db, out, limit: LIMIT },
    });
    expect(exitCode).toBe(0);
    expect(summary.status).toBe("completed");
    expect(summary.scan_mode).toBe("full");
    const truth = await listAllCalls(sim.url, token);
    expect(summary.records_new).toBe(truth.length);
    expect(summary.pages).toBe(Math.ceil(truth.length / LIMIT) + 1);
    expect(proxy.count("/user/api-calls")).toBe(Math.ceil(truth.length / LIMIT) + 1);
    // Each phase took time (this run fetched operations and wrote partitions), and together they
    // fit in the run's seconds: no phase is counted twice.
    const phases = summary.phase_seconds;
    for (const [phase, seconds] of Object.entries(phases)) expect(seconds, phase).toBeGreaterThan(0);
    const phaseTotal = Object.values(phases).reduce((sum, seconds) => sum + seconds, 0);
    expect(phaseTotal).toBeLessThanOrEqual(summary.seconds + 1e-9);
    await expectWarehouseEqualsApi(db, out, truth);
    // Only this user's calls.
    const users = await queryDb(db, "SELECT DISTINCT user_id::VARCHAR AS user_id FROM api_calls");
    expect(users.map((row) => row.user_id)).toEqual([sim.users[0]?.id]);
  });

  test("Parquet files carry DECIMAL(18,6), UTC timestamps and created_at, zstd-compressed", async () => {
    const { out } = await workspace;
    const dir = path.join(out, "api_calls");
    const partitions = await readdir(dir);
    expect(partitions.every((name) => /^created_month=\d{4}-\d{2}$/.test(name))).toBe(true);
    const file = path.join(dir, partitions[0] ?? "", "data.parquet");
    const types = await parquetColumnTypes(file);
    expect(types.price_usd).toContain('"scale":6');
    expect(types.price_usd).toContain('"precision":18');
    expect(types.created_at).toContain('"isAdjustedToUTC":true');
    expect(Object.keys(types)).toContain("created_at");
    expect(await parquetCodecs(file)).toEqual(["ZSTD"]);
  });

  test("running again with nothing new changes nothing and reads only the lookback window", async () => {
    const { db, out } = await workspace;
    const before = await partitionTimes(out);
    const rowsBefore = await queryDb(
      db,
      "SELECT count(*)::INTEGER AS n, sum(price_usd)::VARCHAR AS total FROM api_calls",
    );
    proxy.counts.clear();
    const { summary } = await exportOnce({
      baseUrl: proxy.url,
      token,
      now: simNow,
      flags: { db, out, limit: LIMIT },
    });
    expect(summary.scan_mode).toBe("incremental");
    expect(summary.records_new).toBe(0);
    expect(summary.records_updated).toBe(0);
    expect(summary.partitions_written).toBe(0);
    expect(await partitionTimes(out)).toEqual(before);
    expect(
      await queryDb(db, "SELECT count(*)::INTEGER AS n, sum(price_usd)::VARCHAR AS total FROM api_calls"),
    ).toEqual(rowsBefore);
    // Window: 3 days of a 30-day, ~3000-call history is ~300 calls: one page plus the final empty one.
    const window = (await listAllCalls(sim.url, token)).filter(
      (call) => Date.parse(call.created_at) >= sim.clock.now().getTime() - 4 * DAY_MS,
    ).length;
    expect(proxy.count("/user/api-calls")).toBeLessThanOrEqual(Math.ceil(window / LIMIT) + 2);
  });

  test("a day later: new calls and filled-in billing arrive, within the request bound", async () => {
    const { db, out } = await workspace;
    const before = await partitionTimes(out);
    const pendingBefore = await queryDb(db, "SELECT count(*)::INTEGER AS n FROM pending_billing");
    expect(Number(pendingBefore[0]?.n)).toBeGreaterThan(0);
    const known = new Set(
      (await queryDb(db, "SELECT id::VARCHAR AS id FROM api_calls")).map((row) => String(row.id)),
    );
    sim.clock.advance(DAY_MS);
    proxy.counts.clear();
    const { summary } = await exportOnce({
      baseUrl: proxy.url,
      token,
      now: simNow,
      flags: { db, out, limit: LIMIT },
    });
    const truth = await listAllCalls(sim.url, token);
    const newCalls = truth.filter((call) => !known.has(call.id)).length;
    expect(summary.records_new).toBe(newCalls);
    expect(summary.records_updated).toBeGreaterThan(0);
    const windowCalls = truth.filter(
      (call) => Date.parse(call.created_at) >= sim.clock.now().getTime() - 5 * DAY_MS,
    ).length;
    expect(proxy.count("/user/api-calls")).toBeLessThanOrEqual(Math.ceil(windowCalls / LIMIT) + 2);
    await expectWarehouseEqualsApi(db, out, truth);
    // Only recent partitions were rewritten: a 30-day history spans 2 months, the rewrite touches the last.
    const after = await partitionTimes(out);
    const rewritten = [...after]
      .filter(([partition, time]) => before.get(partition) !== time)
      .map(([p]) => p);
    expect(rewritten.length).toBeGreaterThan(0);
    const recentMonths = new Set(
      truth
        .filter((call) => Date.parse(call.created_at) >= sim.clock.now().getTime() - 5 * DAY_MS)
        .map((call) => `created_month=${call.created_at.slice(0, 7)}`),
    );
    for (const partition of rewritten)
      expect(recentMonths.has(partition.split("/")[1] ?? ""), partition).toBe(true);
    expect(summary.partitions_written).toBe(rewritten.length);
  });

  test("--full-refresh rescans everything and still ends equal", async () => {
    const { db, out } = await workspace;
    const { summary } = await exportOnce({
      baseUrl: sim.url,
      token,
      now: simNow,
      flags: { db, out, limit: 2000, fullRefresh: true },
    });
    expect(summary.scan_mode).toBe("full");
    expect(summary.records_new).toBe(0);
    await expectWarehouseEqualsApi(db, out, await listAllCalls(sim.url, token));
  });

  test("a partition file deleted by hand, or a new --out, is written again by the next run", async () => {
    const { db, out } = await workspace;
    const truth = await listAllCalls(sim.url, token);
    // The oldest month: outside the lookback window, so only the missing file brings it back.
    const oldest = [...(await partitionTimes(out)).keys()]
      .filter((p) => p.startsWith("api_calls/"))
      .sort()[0];
    expect(oldest).toBeDefined();
    const deleted = path.join(out, oldest ?? "", "data.parquet");
    await rm(deleted);
    const again = await exportOnce({
      baseUrl: sim.url,
      token,
      now: simNow,
      flags: { db, out, limit: LIMIT },
    });
    expect(again.summary.partitions_written).toBeGreaterThanOrEqual(1);
    expect((await stat(deleted)).size).toBeGreaterThan(0);
    await expectWarehouseEqualsApi(db, out, truth);

    const freshOut = path.join(path.dirname(out), "parquet-fresh");
    const fresh = await exportOnce({
      baseUrl: sim.url,
      token,
      now: simNow,
      flags: { db, out: freshOut, limit: LIMIT },
    });
    const expected = await partitionTimes(out);
    expect(fresh.summary.partitions_written).toBe(expected.size);
    expect([...(await partitionTimes(freshOut)).keys()].sort()).toEqual([...expected.keys()].sort());
    await expectWarehouseEqualsApi(db, freshOut, truth);
  });

  test("another user's token cannot write into this user's database", async () => {
    const { db, out } = await workspace;
    const other = sim.users[1]?.token ?? "";
    await expect(
      exportOnce({ baseUrl: sim.url, token: other, now: simNow, flags: { db, out } }),
    ).rejects.toMatchObject({
      code: "warehouse.other_user",
    });
  });
});
