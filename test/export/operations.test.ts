import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type RunningSimulator, startSimulator } from "../../src/sim/index.js";
import { toMicros } from "../helpers/apiTruth.js";
import { runCli } from "../helpers/cli.js";
import { type CountingProxy, startCountingProxy } from "../helpers/countingProxy.js";
import { exportOnce, queryDb, tempWorkspace } from "../helpers/exportHarness.js";
import { readDataset } from "../helpers/parquetDataset.js";

/** Requests the proxy saw for single operations. */
function operationRequests(proxy: CountingProxy): number {
  return [...proxy.counts]
    .filter(([pathname]) => pathname.startsWith("/async/operations/"))
    .reduce((n, [, c]) => n + c, 0);
}

/** What the API serves for an id, fetched with plain fetch: the independent truth. */
async function serve(
  sim: RunningSimulator,
  token: string,
  id: string,
): Promise<Record<string, unknown> | null> {
  const response = await fetch(`${sim.url}/async/operations/${id}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  if (response.status === 404) return null;
  expect(response.status).toBe(200);
  return (await response.json()) as Record<string, unknown>;
}

describe("async operations in the warehouse", () => {
  let sim: RunningSimulator;
  let proxy: CountingProxy;
  let token: string;
  const workspace = tempWorkspace();

  beforeAll(async () => {
    // An even stream: the operations still in flight at the first run's clock are what this draws on.
    sim = await startSimulator({
      seed: 17,
      calls: 4000,
      days: 4,
      users: 2,
      priceMode: "adversarial",
      seasonal: false,
    });
    token = sim.users[0]?.token ?? "";
    proxy = await startCountingProxy(sim.url);
  });
  afterAll(async () => {
    await proxy.close();
    await sim.close();
    await (await workspace).cleanup();
  });

  test("every operation the exported calls started is stored once, in its latest status, with its fields", async () => {
    const { db, out } = await workspace;
    const { summary, exitCode } = await exportOnce({ baseUrl: proxy.url, token, flags: { db, out } });
    expect(exitCode).toBe(0);
    const stored = await queryDb(
      db,
      "SELECT id::VARCHAR AS id, fetch_status, operation_type, status, error, src_format, output_format, output_unit, result_value, output_count, outputs::VARCHAR AS outputs FROM async_operations",
    );
    expect(new Set(stored.map((row) => row.id)).size).toBe(stored.length);
    expect(summary.operations?.fetched).toBe(stored.length);
    expect(operationRequests(proxy)).toBe(stored.length);
    const byId = new Map(stored.map((row) => [String(row.id), row]));
    const calls = await queryDb(
      db,
      "SELECT id::VARCHAR AS id, method, endpoint_template, status_code FROM api_calls",
    );
    let found = 0;
    for (const call of calls) {
      const truth = await serve(sim, token, String(call.id));
      const row = byId.get(String(call.id));
      if (truth === null) {
        expect(row === undefined || row.fetch_status === "not_found", String(call.id)).toBe(true);
        continue;
      }
      found += 1;
      expect(row, `operation ${String(call.id)} (${String(call.endpoint_template)}) missing`).toBeDefined();
      expect(row?.fetch_status).toBe("found");
      expect(row?.operation_type).toBe(truth.type);
      expect(row?.status).toBe(truth.status);
      expect(row?.error ?? null).toBe(truth.error ?? null);
      expect(row?.src_format ?? null).toBe(truth.src_format ?? null);
      expect(row?.output_format ?? null).toBe(truth.output_format ?? null);
      expect(row?.output_unit ?? null).toBe(truth.output_unit ?? null);
      const result = truth.mass ?? truth.volume ?? truth.density ?? truth.surface_area ?? null;
      expect(row?.result_value ?? null).toBe(result);
      const outputs = Object.entries((truth.outputs ?? {}) as Record<string, string>);
      expect(row?.output_count).toBe(outputs.length);
    }
    expect(found).toBeGreaterThan(100);
    const types = await queryDb(
      db,
      "SELECT DISTINCT operation_type FROM async_operations WHERE fetch_status = 'found'",
    );
    expect(types.length).toBeGreaterThanOrEqual(8);
  });

  test("output files are never stored: only names and sizes", async () => {
    const { db } = await workspace;
    const withOutputs = await queryDb(
      db,
      "SELECT id::VARCHAR AS id, outputs::VARCHAR AS outputs FROM async_operations WHERE output_count > 0 LIMIT 5",
    );
    expect(withOutputs.length).toBeGreaterThan(0);
    const file = (await readFile(db)).toString("latin1");
    for (const row of withOutputs) {
      const truth = await serve(sim, token, String(row.id));
      const names = Object.keys((truth?.outputs ?? {}) as Record<string, string>);
      expect((JSON.parse(String(row.outputs)) as { name: string }[]).map((o) => o.name)).toEqual(names);
      for (const content of Object.values((truth?.outputs ?? {}) as Record<string, string>)) {
        expect(file.includes(content.slice(0, 200))).toBe(false);
      }
    }
  });

  test("a second run re-fetches only operations that were not finished", async () => {
    const { db, out } = await workspace;
    const unfinished = await queryDb(
      db,
      "SELECT count(*)::INTEGER AS n FROM async_operations WHERE fetch_status = 'found' AND status NOT IN ('completed', 'failed')",
    );
    // The simulator's newest jobs are still queued or running, so the check below is not 0 == 0.
    expect(Number(unfinished[0]?.n)).toBeGreaterThan(0);
    proxy.counts.clear();
    const { summary } = await exportOnce({ baseUrl: proxy.url, token, flags: { db, out } });
    expect(summary.records_new).toBe(0);
    expect(operationRequests(proxy)).toBe(Number(unfinished[0]?.n));
    expect(summary.operations?.fetched).toBe(Number(unfinished[0]?.n));
  });

  test("the views' figures equal sums computed from the rows", async () => {
    const { db } = await workspace;
    const rows = await queryDb(
      db,
      "SELECT o.operation_type, o.status, o.error, c.price_usd::VARCHAR AS price FROM async_operations o JOIN api_calls c USING (id) WHERE o.fetch_status = 'found'",
    );
    const expected = new Map<string, { operations: number; cost: bigint }>();
    for (const row of rows) {
      const key = `${String(row.operation_type)}/${String(row.status)}`;
      const entry = expected.get(key) ?? { operations: 0, cost: 0n };
      entry.operations += 1;
      entry.cost += row.price === null ? 0n : toMicros(String(row.price));
      expected.set(key, entry);
    }
    const view = await queryDb(
      db,
      "SELECT operation_type, status, operations::INTEGER AS operations, cost_usd::VARCHAR AS cost FROM cost_per_operation_type",
    );
    expect(view.length).toBe(expected.size);
    for (const row of view) {
      const entry = expected.get(`${String(row.operation_type)}/${String(row.status)}`);
      expect(row.operations).toBe(entry?.operations);
      expect(toMicros(String(row.cost))).toBe(entry?.cost);
    }
    const billedFailed = rows.filter(
      (row) => row.status === "failed" && row.price !== null && toMicros(String(row.price)) > 0n,
    );
    // Adversarial prices charge some failed operations; Zoo's own rules never do.
    expect(billedFailed.length).toBeGreaterThan(0);
    const failedView = await queryDb(db, "SELECT error FROM billed_failed_operations");
    expect(failedView.length).toBe(billedFailed.length);
    expect(failedView.every((row) => typeof row.error === "string" && row.error.length > 0)).toBe(true);
    const pairs = await queryDb(db, "SELECT sum(conversions)::INTEGER AS n FROM conversion_pairs");
    expect(pairs[0]?.n).toBe(rows.filter((row) => row.operation_type === "file_conversion").length);
    const timings = await queryDb(
      db,
      "SELECT operation_type, queue_ms_p50, run_ms_p90 FROM operation_timings",
    );
    expect(timings.length).toBeGreaterThan(5);
    for (const row of timings) expect(Number(row.run_ms_p90)).toBeGreaterThanOrEqual(0);
  });

  test("the async_operations Parquet dataset equals the table", async () => {
    const { db, out } = await workspace;
    const ids = (await queryDb(db, "SELECT id::VARCHAR AS id FROM async_operations"))
      .map((row) => String(row.id))
      .sort();
    const dataset = await readDataset(path.join(out, "async_operations"));
    expect(dataset.rows.map((row) => String(row.id)).sort()).toEqual(ids);
  });

  test("operation get --from-db shows the stored operation; --no-operations fetches none", async () => {
    const { db, out } = await workspace;
    const [row] = await queryDb(
      db,
      "SELECT id::VARCHAR AS id, operation_type, status FROM async_operations WHERE status = 'failed' LIMIT 1",
    );
    const shown = await runCli(["operation", "get", String(row?.id), "--from-db", "--db", db, "--json"]);
    expect(shown.code).toBe(5);
    expect(JSON.parse(shown.stdout)).toMatchObject({
      id: row?.id,
      operation_type: row?.operation_type,
      status: "failed",
    });
    const missing = await runCli([
      "operation",
      "get",
      "00000000-0000-4000-8000-000000000000",
      "--from-db",
      "--db",
      db,
    ]);
    expect(missing.code).toBe(3);
    expect(missing.stderr).toMatch(/holds no async operation/);
    proxy.counts.clear();
    sim.clock.advance(86_400_000);
    const { summary } = await exportOnce({
      baseUrl: proxy.url,
      token,
      flags: { db, out, operations: false },
    });
    expect(summary.records_new).toBeGreaterThan(0);
    expect(operationRequests(proxy)).toBe(0);
  });
});
