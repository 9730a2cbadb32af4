import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { expect, test } from "vitest";
import { MAX_RECORD_BYTES, READ_JSON_MAX_OBJECT_BYTES } from "../../src/transform/limits.js";
import { exportOnce, queryDb, tempWorkspace } from "../helpers/exportHarness.js";
import {
  errorBody,
  type HostileHandler,
  sendJson,
  startHostileApi,
  validCall,
  validOperation,
} from "../helpers/hostileApi.js";

/**
 * Poison records: values the spec's types allow and a column cannot hold, which would fail their
 * whole batch on every run. Each is a reject naming its field, the rest of the batch loads, the run
 * ends partial (exit 4), the Parquet dataset is written, and the next run goes on.
 */

/** Stands for an array nested 5000 deep: JSON.parse reads it, JSON.stringify cannot write it. */
const DEEP = "@@deep@@";
const deepText = (text: string) =>
  text.replaceAll(`"${DEEP}"`, () => `${"[".repeat(5000)}${"]".repeat(5000)}`);

/** A page in the compact shape the client may hand DuckDB as raw bytes (items first). */
function compactPage(items: readonly unknown[], next: string | null): string {
  return deepText(`{"items":${JSON.stringify(items)},"next_page":${JSON.stringify(next)}}`);
}

/** Serves pages (compact) and, for /async/operations/{id}, `operations[id]` or a 404. */
function handler(
  pages: readonly (readonly unknown[])[],
  operations: Record<string, unknown> = {},
): HostileHandler {
  return (request, res) => {
    // The account listings have their own poison tests (accountRecords.test.ts): not found here.
    if (request.path === "/user/payment/balance" || request.path === "/user/payment/invoices") {
      sendJson(res, 404, errorBody(404, "not found"));
      return;
    }
    if (request.path.startsWith("/async/operations/")) {
      const body = operations[request.path.slice("/async/operations/".length)];
      if (body === undefined) sendJson(res, 404, errorBody(404, "not found"));
      else sendJson(res, 200, deepText(JSON.stringify(body)));
      return;
    }
    const token = request.query.get("page_token");
    const index = token === null ? 0 : Number(token.replace(/^p/, ""));
    const items = pages[index] ?? [];
    const next = index < pages.length ? `p${index + 1}` : null;
    sendJson(res, 200, compactPage(items, next));
  };
}

async function parquetFiles(out: string, dataset: string): Promise<string[]> {
  const entries = await readdir(path.join(out, dataset), { recursive: true }).catch(() => []);
  return entries.filter((entry) => entry.endsWith(".parquet"));
}

const POISON: [string, Record<string, unknown>, RegExp][] = [
  ["status_code 2^31", { status_code: 2 ** 31 }, /→ at status_code/],
  ["minutes -2^31-1", { minutes: -(2 ** 31) - 1 }, /→ at minutes/],
  ["February 30", { completed_at: "2026-02-30T00:00:00Z" }, /→ at completed_at/],
  ["April 31", { started_at: "2026-04-31T12:00:00Z" }, /→ at started_at/],
  ["a lone surrogate", { user_agent: "agent \ud800 1.0" }, /lone UTF-16 surrogate[\s\S]*→ at user_agent/],
  [
    "a lone surrogate in an unknown field",
    { future_field: { note: "x\udc00" } },
    /lone UTF-16 surrogate[\s\S]*→ at future_field\.note/,
  ],
  ["an unknown field nested 5000 deep", { future_field: { deep: DEEP } }, /nested deeper than 1000 levels/],
  [
    "a record above DuckDB's JSON object limit",
    { user_agent: "x".repeat(MAX_RECORD_BYTES + 1024) },
    /above the 16777216-byte limit/,
  ],
];

test("each poison record is a reject naming its field; the batch loads; exit 4; the next run goes on", async () => {
  // Page 0: 20 calls, the poison ones among them; page 1: 10 ordinary calls (loaded from raw bytes).
  const poisoned = new Map(POISON.map(([, overrides, reason], i) => [3 + 2 * i, { overrides, reason }]));
  const first = Array.from({ length: 20 }, (_, minute) =>
    validCall(minute, poisoned.get(minute)?.overrides ?? {}),
  );
  const second = Array.from({ length: 10 }, (_, i) => validCall(20 + i));
  const api = await startHostileApi(handler([first, second]));
  const { db, out, cleanup } = await tempWorkspace();
  try {
    const run = await exportOnce({ baseUrl: api.url, token: "t", flags: { db, out, limit: 20 } });
    expect(run.summary.message).toBeUndefined();
    expect(run.exitCode).toBe(4);
    expect(run.summary.records_rejected).toBe(POISON.length);
    expect(run.summary.records_new).toBe(30 - POISON.length);
    const rejects = await queryDb(
      db,
      "SELECT record_id, reason, length(raw_json)::INTEGER AS raw_length FROM rejects ORDER BY record_id",
    );
    expect(rejects).toHaveLength(POISON.length);
    for (const [minute, { reason }] of poisoned) {
      const id = String(validCall(minute).id);
      const reject = rejects.find((row) => row.record_id === id);
      expect(String(reject?.reason), id).toMatch(reason);
      // Kept whole, except the oversized one, which is cut so that its reject still loads.
      expect(Number(reject?.raw_length)).toBeLessThan(1024 * 1024 + 100);
    }
    const stored = await queryDb(db, "SELECT count(*)::INTEGER AS n FROM api_calls");
    expect(stored).toEqual([{ n: 30 - POISON.length }]);
    expect((await parquetFiles(out, "api_calls")).length).toBeGreaterThan(0);

    const again = await exportOnce({ baseUrl: api.url, token: "t", flags: { db, out, limit: 20 } });
    expect(again.summary.message).toBeUndefined();
    expect([0, 4]).toContain(again.exitCode);
    expect(await queryDb(db, "SELECT count(*)::INTEGER AS n FROM api_calls")).toEqual([
      { n: 30 - POISON.length },
    ]);
  } finally {
    await api.close();
    await cleanup();
  }
});

test("raw page bytes DuckDB reads otherwise than JavaScript (bad UTF-8, a duplicate key) load as validated", async () => {
  const calls = Array.from({ length: 6 }, (_, minute) => validCall(minute));
  const text = compactPage(calls, "p1")
    .replace('"user_agent":"hostile-test/1"', '"user_agent":"first","user_agent":"last"')
    .replace(`"endpoint":"/file/volume"`, `"endpoint":"/file/volume/BROKEN"`);
  // An invalid UTF-8 byte inside a string: JavaScript decodes it to U+FFFD, DuckDB refuses it.
  const bytes = Buffer.from(text.replace("BROKEN", "\u0000"));
  bytes[bytes.indexOf(0)] = 0xff;
  const api = await startHostileApi((request, res) => {
    if (request.path === "/user/payment/balance") sendJson(res, 404, errorBody(404, "not found"));
    else if (request.query.get("page_token") === null) {
      res.writeHead(200, { "content-type": "application/json", "content-length": bytes.length });
      res.end(bytes);
    } else {
      sendJson(res, 200, compactPage([], null));
    }
  });
  const { db, out, cleanup } = await tempWorkspace();
  try {
    const run = await exportOnce({
      baseUrl: api.url,
      token: "t",
      flags: { db, out, limit: 20, operations: false },
    });
    expect(run.summary.message).toBeUndefined();
    expect(run.exitCode).toBe(0);
    const rows = await queryDb(
      db,
      "SELECT count(*)::INTEGER AS n, count(*) FILTER (WHERE user_agent = 'last')::INTEGER AS last, count(*) FILTER (WHERE endpoint = '/file/volume/\uFFFD')::INTEGER AS replaced FROM api_calls",
    );
    expect(rows).toEqual([{ n: 6, last: 1, replaced: 1 }]);
  } finally {
    await api.close();
    await cleanup();
  }
});

test("poison operation bodies are rejects with the reason; the rest load; Parquet is written; runs go on", async () => {
  const calls = Array.from({ length: 10 }, (_, minute) => validCall(minute));
  const operations: Record<string, unknown> = {};
  for (let minute = 0; minute < 10; minute++) operations[String(calls[minute]?.id)] = validOperation(minute);
  const poison: [number, Record<string, unknown>, RegExp][] = [
    [1, { type: "file_teleport", user_id: "not-a-uuid" }, /expected a UUID[\s\S]*→ at user_id/],
    [3, { created_at: "2026-02-30T00:00:00Z" }, /→ at created_at/],
    [5, { type: "file_teleport", updated_at: "2026-04-31T00:00:00Z" }, /→ at updated_at/],
    [6, { type: "file_teleport", notes: ["ok", "\ud800"] }, /lone UTF-16 surrogate[\s\S]*→ at notes\[1\]/],
    [7, { type: "file_teleport", notes: DEEP }, /nested deeper than 1000 levels/],
  ];
  for (const [minute, overrides] of poison)
    operations[String(calls[minute]?.id)] = validOperation(minute, overrides);
  const api = await startHostileApi(handler([calls], operations));
  const { db, out, cleanup } = await tempWorkspace();
  try {
    const run = await exportOnce({ baseUrl: api.url, token: "t", flags: { db, out, limit: 20 } });
    expect(run.summary.message).toBeUndefined();
    expect(run.exitCode).toBe(4);
    expect(run.summary.operations?.rejected).toBe(poison.length);
    const stored = await queryDb(
      db,
      "SELECT fetch_status, count(*)::INTEGER AS n FROM async_operations GROUP BY ALL ORDER BY ALL",
    );
    expect(stored).toEqual([
      { fetch_status: "found", n: 10 - poison.length },
      { fetch_status: "rejected", n: poison.length },
    ]);
    expect((await parquetFiles(out, "async_operations")).length).toBeGreaterThan(0);
    const rejects = await queryDb(db, "SELECT record_id, reason FROM rejects");
    for (const [minute, , reason] of poison) {
      const found = rejects.filter((row) => row.record_id === calls[minute]?.id);
      expect(found.length, String(minute)).toBe(1);
      expect(String(found[0]?.reason)).toMatch(reason);
    }
    // The next run does not ask for the rejected bodies again: it moves on.
    const asked = api.requests.filter((request) => request.path.startsWith("/async/operations/")).length;
    const again = await exportOnce({ baseUrl: api.url, token: "t", flags: { db, out, limit: 20 } });
    expect(again.summary.message).toBeUndefined();
    expect(again.exitCode).toBe(0);
    expect(api.requests.filter((request) => request.path.startsWith("/async/operations/")).length).toBe(
      asked,
    );
  } finally {
    await api.close();
    await cleanup();
  }
});

test("every read_json of a spool file allows the object size the validator promises", async () => {
  const sqlDir = path.resolve(import.meta.dirname, "../../sql");
  let reads = 0;
  for (const file of (await readdir(sqlDir, { recursive: true })).filter((name) => name.endsWith(".sql"))) {
    const sql = await readFile(path.join(sqlDir, file), "utf8");
    const calls = sql.split(/\bread_json\(/).slice(1);
    for (const call of calls) {
      reads += 1;
      expect(call, file).toMatch(new RegExp(`maximum_object_size = ${READ_JSON_MAX_OBJECT_BYTES}\\)`));
    }
  }
  expect(reads).toBeGreaterThanOrEqual(4);
  expect(READ_JSON_MAX_OBJECT_BYTES).toBeGreaterThan(MAX_RECORD_BYTES);
});
