import { afterEach, describe, expect, test } from "vitest";
import { exportOnce, queryDb, tempWorkspace, writeDb } from "../helpers/exportHarness.js";
import { type HostileApi, pagedHandler, startHostileApi, validCall } from "../helpers/hostileApi.js";
import { readDataset } from "../helpers/parquetDataset.js";

const DAY_MS = 24 * 60 * 60 * 1000;

let cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups = [];
});

type Pages = Parameters<typeof pagedHandler>[0];

async function serve(pages: Pages): Promise<HostileApi> {
  const api = await startHostileApi(pagedHandler(pages));
  cleanups.push(() => api.close());
  return api;
}

async function workspace() {
  const ws = await tempWorkspace();
  cleanups.push(ws.cleanup);
  return ws;
}

async function run(pages: Pages, flags: { db: string; out: string; fullRefresh?: boolean }) {
  const api = await serve(pages);
  return exportOnce({ baseUrl: api.url, token: "t", flags: { ...flags, operations: false } });
}

const highWater = async (db: string) =>
  Date.parse(
    String(
      (
        await queryDb(
          db,
          "SELECT strftime(high_water_created, '%Y-%m-%dT%H:%M:%SZ') AS t FROM internal.export_state",
        )
      )[0]?.t,
    ),
  );

/** Two calls of 2026-10-01, then one created at `createdAt`, then Dropshot's empty last page. */
const withCallAt = (createdAt: string): Pages => [
  { items: [validCall(1), validCall(2)] },
  { items: [validCall(3, { created_at: createdAt, updated_at: createdAt })] },
  { items: [] },
];

describe("far-future calls never harm later runs", () => {
  test("9999-12-31T23:59:59Z loads with one warning, its partition is written, and later runs end 0", async () => {
    const { db, out } = await workspace();
    const pages = withCallAt("9999-12-31T23:59:59Z");
    const before = Date.now();
    const first = await run(pages, { db, out });
    expect(first.exitCode, JSON.stringify(first.summary)).toBe(0);
    expect(first.summary.warnings.join("\n")).toMatch(
      /1 call\(s\) dated more than a day after this run's clock \(first: \S+ created at 9999-12-31T23:59:59Z\)/,
    );
    expect(await queryDb(db, "SELECT count(*)::INTEGER AS n FROM api_calls")).toEqual([{ n: 3 }]);
    // The high-water mark is the run's clock, not year 9999.
    const mark = await highWater(db);
    expect(mark).toBeGreaterThanOrEqual(before - 1000);
    expect(mark).toBeLessThanOrEqual(Date.now() + DAY_MS);
    const dataset = await readDataset(`${out}/api_calls`);
    expect(dataset.rows.filter((row) => row.__partition === "created_month=9999-12")).toHaveLength(1);
    for (const flags of [
      { db, out },
      { db, out, fullRefresh: true },
    ]) {
      const later = await run(pages, flags);
      expect(later.exitCode, JSON.stringify(later.summary)).toBe(0);
    }
    expect(await queryDb(db, "SELECT count(*)::INTEGER AS n FROM api_calls")).toEqual([{ n: 3 }]);
  });

  test("a created_at in year 10000 UTC is rejected with the reason; the rest loads and later runs go on", async () => {
    const { db, out } = await workspace();
    const pages = withCallAt("9999-12-31T23:59:59-05:00");
    const first = await run(pages, { db, out });
    expect(first.exitCode, JSON.stringify(first.summary)).toBe(4);
    expect(first.summary.records_rejected).toBe(1);
    const rejects = await queryDb(db, "SELECT record_id, reason FROM rejects");
    expect(rejects).toEqual([
      {
        record_id: validCall(3).id,
        reason: expect.stringMatching(/UTC years 1000-9999[\s\S]*at created_at/),
      },
    ]);
    expect(await queryDb(db, "SELECT count(*)::INTEGER AS n FROM api_calls")).toEqual([{ n: 2 }]);
    // The same API again, and with --full-refresh: the call is rejected again, nothing breaks.
    for (const flags of [
      { db, out },
      { db, out, fullRefresh: true },
    ]) {
      const later = await run(pages, flags);
      expect(later.exitCode, JSON.stringify(later.summary)).toBe(4);
      expect(later.summary.records_rejected).toBe(1);
    }
    // Once the API stops sending it, runs end complete.
    const fixed = await run([{ items: [validCall(1), validCall(2)] }, { items: [] }], {
      db,
      out,
      fullRefresh: true,
    });
    expect(fixed.exitCode, JSON.stringify(fixed.summary)).toBe(0);
  });
});

describe("the lookback window follows the real calls, not a call dated years ahead", () => {
  /**
   * Old calls, two recent ones whose billing is not complete yet, and one dated `future`. The next
   * run's API has the billing of the first recent call filled in.
   */
  function history(future: string | undefined, billed: boolean): Pages {
    const recent = (minute: number, agoMs: number, price: number | null) => {
      const created = new Date(Date.now() - agoMs).toISOString();
      const updated = billed && price !== null ? new Date(Date.now() - agoMs / 2).toISOString() : created;
      return validCall(minute, { created_at: created, updated_at: updated, price });
    };
    return [
      { items: [validCall(1), validCall(2)] },
      { items: [recent(10, 2 * 60 * 60 * 1000, billed ? 12.5 : null), recent(11, 60 * 60 * 1000, null)] },
      ...(future === undefined
        ? []
        : [{ items: [validCall(12, { created_at: future, updated_at: future })] }]),
      { items: [] },
    ];
  }

  test("a call dated three years ahead: the next run still reads the billing filled in since", async () => {
    const { db, out } = await workspace();
    const future = new Date(Date.now() + 3 * 365 * DAY_MS).toISOString();
    const first = await run(history(future, false), { db, out });
    expect(first.exitCode, JSON.stringify(first.summary)).toBe(0);
    expect(first.summary.warnings.join("\n")).toMatch(/dated more than a day after this run's clock/);
    expect(await highWater(db)).toBeLessThanOrEqual(Date.now() + DAY_MS);
    const second = await run(history(future, true), { db, out });
    expect(second.summary.warnings.join("\n")).not.toMatch(/stored high-water mark/);
    expect(second.exitCode, JSON.stringify(second.summary)).toBe(0);
    // Incremental from the rung before the window, which the old calls' page left.
    expect(second.summary.scan_mode).toBe("incremental");
    expect(second.summary.records_updated).toBeGreaterThanOrEqual(1);
    expect(await queryDb(db, "SELECT sum(price_usd)::VARCHAR AS spend FROM api_calls")).toEqual([
      { spend: "12.560000" },
    ]);
  });

  test.each([
    ["9999-12-31T23:59:59Z", "9999-12-31 23:59:59+00"],
    ["a year-10000 instant", "10000-01-01 04:59:59+00"],
  ])(
    "a warehouse an older version left with its high-water mark at %s recovers on the next run",
    async (_, mark) => {
      const { db, out } = await workspace();
      const first = await run(history(undefined, false), { db, out });
      expect(first.exitCode, JSON.stringify(first.summary)).toBe(0);
      await writeDb(db, `UPDATE internal.export_state SET high_water_created = '${mark}'::TIMESTAMPTZ`);
      const before = Date.now();
      const second = await run(history(undefined, true), { db, out });
      expect(second.exitCode, JSON.stringify(second.summary)).toBe(0);
      expect(second.summary.warnings.join("\n")).toMatch(
        /stored high-water mark .* was after this run's clock/,
      );
      expect(await highWater(db)).toBeGreaterThanOrEqual(before - 1000);
      expect(await highWater(db)).toBeLessThanOrEqual(Date.now());
      expect(await queryDb(db, "SELECT sum(price_usd)::VARCHAR AS spend FROM api_calls")).toEqual([
        { spend: "12.540000" },
      ]);
    },
  );

  test("a warehouse an older version left with a call stored in year 10000 writes its partitions and ends 0", async () => {
    const { db, out } = await workspace();
    const first = await run(history(undefined, false), { db, out });
    expect(first.exitCode, JSON.stringify(first.summary)).toBe(0);
    await writeDb(
      db,
      `INSERT INTO api_calls SELECT * REPLACE ('0a1b2c3d-9999-4000-8000-999999999999'::UUID AS id, '10000-01-01 04:59:59+00'::TIMESTAMPTZ AS created_at, DATE '10000-01-01' AS created_day, DATE '10000-01-01' AS created_month) FROM api_calls LIMIT 1`,
    );
    const second = await run(history(undefined, true), { db, out });
    expect(second.exitCode, JSON.stringify(second.summary)).toBe(0);
    const dataset = await readDataset(`${out}/api_calls`);
    expect(dataset.rows.filter((row) => row.__partition === "created_month=10000-01")).toHaveLength(1);
  });
});
