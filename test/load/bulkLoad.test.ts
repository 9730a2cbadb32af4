import { mkdir, stat } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { splitCompactPage } from "../../src/api/pageItems.js";
import { type Batch, noteRecord, serializeRow } from "../../src/load/apiCallBatch.js";
import { ApiCallLoader } from "../../src/load/apiCallLoader.js";
import { openWarehouse, TABLE_ROW_GROUP_ROWS, type Warehouse } from "../../src/load/database.js";
import { SecretBox } from "../../src/secrets/secretBox.js";
import { type RunningSimulator, startSimulator } from "../../src/sim/index.js";
import {
  checkApiCall,
  epochMicros,
  isEarlier,
  type TransformContext,
  transformApiCall,
} from "../../src/transform/apiCallRow.js";
import { isBulkLoadable } from "../../src/transform/bulkLoadable.js";
import { EndpointTemplater } from "../../src/transform/endpointTemplate.js";
import type { PrivacyPolicy } from "../../src/transform/privacy.js";
import { tempWorkspace } from "../helpers/exportHarness.js";

/**
 * The bulk path (raw items read by DuckDB, derived values joined in) must store exactly the rows the
 * row path (transform, serialise, read) stores: compared column by column on real DuckDB files.
 */

const USER = "7d3c1e2a-4b5f-4a6b-9c8d-0e1f2a3b4c5d";
let counter = 0;
function call(overrides: Record<string, unknown>): Record<string, unknown> {
  counter += 1;
  return {
    id: `0198c2a4-6a7b-7cc4-9d3e-${String(counter).padStart(12, "0")}`,
    user_id: USER,
    created_at: "2026-03-01T10:00:00.123456Z",
    updated_at: "2026-03-01T10:05:00Z",
    started_at: "2026-03-01T10:00:00.2Z",
    completed_at: null,
    duration: 3469926000,
    email: "grace@example.net",
    endpoint: "/file/conversion/fbx/step",
    ip_address: "217.190.51.207",
    method: "POST",
    minutes: 1,
    seconds: 4,
    org_id: null,
    origin: "",
    price: 0.000712,
    request_query_params: "",
    status_code: 201,
    stripe_invoice_item_id: "ii_1",
    token: "dd7f5f94-06f4-4310-8e45-71989f8e4ea5",
    user_agent: "python-requests/2.32.3",
    ...overrides,
  };
}

/** Records at the edges of what the bulk path takes. */
function edgeCases(): Record<string, unknown>[] {
  const cases = [
    call({}),
    call({ created_at: "2026-03-01T10:00:00.123456789Z", updated_at: "2026-03-01T10:05:00.9999999Z" }),
    call({ started_at: null, completed_at: "2026-03-01T10:00:09Z", duration: null, minutes: null }),
    call({ price: null, seconds: null, status_code: null }),
    call({ price: 0, org_id: "11111111-2222-4333-8444-555555555555" }),
    call({ price: 0.1 }),
    call({ price: 0.29 }),
    call({ price: 1e-6 }),
    call({ price: 999999.999999 }),
    call({ price: 123456.123456 }),
    call({ user_agent: 'Zoo 🦖 "quoted" \\ back\nslash\ttab \u0000 é', origin: "https://zoo.dev" }),
    call({ endpoint: "/async/operations/0198c2a4-6a7b-7cc4-9d3e-5f1a2b3c4d5e", method: "GET" }),
    call({ endpoint: "/users/12345/api-calls?limit=5", request_query_params: "limit=5" }),
    call({ id: "0198C2A4-6A7B-7CC4-9D3E-5F1A2B3C4D5E", token: "DD7F5F94-06F4-4310-8E45-71989F8E4EA5" }),
  ];
  for (const field of ["email", "endpoint", "ip_address", "origin", "price", "org_id", "duration"]) {
    const record = call({});
    delete record[field];
    cases.push(record);
  }
  // Prices as JSON numbers with up to 6 decimals across the range the sanity limit allows: DuckDB's
  // number-to-DECIMAL(18,6) must give the exact decimal, as the row path's text does.
  let seed = 7;
  const random = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  for (let i = 0; i < 2000; i++) {
    const micros = Math.floor(random() * 10 ** Math.floor(random() * 13));
    cases.push(
      call({ price: Number(`${Math.floor(micros / 1e6)}.${String(micros % 1e6).padStart(6, "0")}`) }),
    );
  }
  return cases;
}

let sim: RunningSimulator;
let simItems: Record<string, unknown>[];
beforeAll(async () => {
  sim = await startSimulator({ seed: 5, calls: 3000, days: 10, users: 1 });
  const url = new URL("/user/api-calls", sim.url);
  url.searchParams.set("limit", "5000");
  url.searchParams.set("sort_by", "created_at_ascending");
  const response = await fetch(url, { headers: { authorization: `Bearer ${sim.users[0]?.token}` } });
  simItems = ((await response.json()) as { items: Record<string, unknown>[] }).items;
});
afterAll(() => sim.close());

async function load(
  dir: string,
  name: string,
  items: Record<string, unknown>[],
  privacy: PrivacyPolicy,
  bulk: boolean,
  /** The items file's text, when it must differ from JSON.stringify(items). */
  itemsText = JSON.stringify(items),
  /** Run on the new database before the load. */
  prepare?: (warehouse: Warehouse) => Promise<void>,
  /** Run on the database right after the commit, before anything else. */
  inspect?: (warehouse: Warehouse) => Promise<void>,
): Promise<{ rows: unknown[][]; warnings: string[] }> {
  const context: TransformContext = {
    templater: new EndpointTemplater(),
    secrets: new SecretBox(Buffer.alloc(32, 9)),
    privacy,
    maxPriceUsd: 1_000_000,
  };
  const spoolDir = path.join(dir, `${name}-spool`);
  await mkdir(spoolDir, { recursive: true });
  const warehouse = await openWarehouse(path.join(dir, `${name}.duckdb`));
  const warnings: string[] = [];
  try {
    await prepare?.(warehouse);
    const loader = new ApiCallLoader(warehouse, {
      runId: "run",
      spoolDir,
      durationUnit: "ns",
      partitioning: "month",
      transform: context,
      onWarning: (message) => warnings.push(message),
    });
    const batch = loader.newBatch(null);
    for (const item of items) {
      const checked = checkApiCall(item, context);
      if (!checked.ok) throw new Error(checked.reason);
      noteRecord(batch, checked.call.created_at);
      if (bulk) {
        expect(isBulkLoadable(checked.call, checked.source)).toBe(true);
        batch.derived.add(checked.call);
      } else {
        const result = transformApiCall(item, context);
        if (result.ok) batch.rows.append([serializeRow(result.row)]);
      }
    }
    if (bulk)
      batch.items.append(
        splitCompactPage(Buffer.from(`{"items":${itemsText},"next_page":null}`))?.items ?? [],
      );
    const result = await loader.commit(batch);
    await inspect?.(warehouse);
    expect(result.inserted).toBe(items.length);
    const reader = await warehouse.connection.runAndReadAll(
      "SELECT * EXCLUDE (first_seen_run_id, last_changed_run_id) FROM api_calls ORDER BY id",
    );
    return { rows: reader.getRowsJS(), warnings };
  } finally {
    warehouse.close();
  }
}

describe("bulk-loaded records are stored exactly as the row path stores them", () => {
  const policies: [string, PrivacyPolicy][] = [
    ["default policy", { token: "hash", email: "keep", ipAddress: "keep" }],
    ["everything hashed", { token: "hash", email: "hash", ipAddress: "hash" }],
    ["everything kept or dropped", { token: "keep", email: "drop", ipAddress: "drop" }],
  ];
  for (const [label, privacy] of policies) {
    test(`edge cases and simulator records, ${label}`, async () => {
      const { dir, cleanup } = await tempWorkspace();
      try {
        const items = [...edgeCases(), ...simItems];
        const viaRows = await load(dir, "rows", items, privacy, false);
        const viaBulk = await load(dir, "bulk", items, privacy, true);
        expect(viaRows.rows.length).toBe(items.length);
        expect(viaBulk.rows).toEqual(viaRows.rows);
        expect(viaBulk.warnings).toEqual([]);
      } finally {
        await cleanup();
      }
    });
  }

  test("a record DuckDB reads otherwise (a duplicate key) sends the batch through the row path, said", async () => {
    const { dir, cleanup } = await tempWorkspace();
    try {
      const privacy: PrivacyPolicy = { token: "hash", email: "keep", ipAddress: "keep" };
      const items = simItems.slice(0, 50);
      const expected = await load(dir, "rows", items, privacy, false);
      // A server's text with the same key twice: JSON.parse keeps the last one, DuckDB refuses it.
      const record = JSON.stringify(items[7]);
      const twice = record.replace('"user_agent":', '"user_agent":"first","user_agent":');
      expect(JSON.parse(twice)).toEqual(items[7]);
      const text = JSON.stringify(items).replace(record, twice);
      const bulk = await load(dir, "bulk", items, privacy, true, text);
      expect(bulk.rows).toEqual(expected.rows);
      expect(bulk.warnings.join("\n")).toMatch(/duplicate key.*row path/s);
    } finally {
      await cleanup();
    }
  });
});

test("a batch shorter than a row group is written into the file at once, not held in the WAL and in memory", async () => {
  const { dir, cleanup } = await tempWorkspace();
  try {
    const privacy: PrivacyPolicy = { token: "hash", email: "keep", ipAddress: "keep" };
    let walBytes = -1;
    const items = [...edgeCases(), ...simItems];
    const loaded = await load(dir, "short", items, privacy, true, undefined, undefined, async () => {
      walBytes = await stat(path.join(dir, "short.duckdb.wal")).then(
        (wal) => wal.size,
        () => 0,
      );
    });
    expect(loaded.rows.length).toBe(items.length);
    expect(items.length).toBeLessThan(TABLE_ROW_GROUP_ROWS);
    expect(walBytes).toBe(0);
    expect(loaded.warnings).toEqual([]);
  } finally {
    await cleanup();
  }
});

test("a batch that needs more memory than DuckDB's limit is retried with a higher limit, said", async () => {
  const { dir, cleanup } = await tempWorkspace();
  try {
    const privacy: PrivacyPolicy = { token: "hash", email: "keep", ipAddress: "keep" };
    // 30k records with long user agents: far more than the 8 MB limit set below.
    const items = Array.from({ length: 30_000 }, (_, i) =>
      call({ user_agent: `agent-${i}-${"x".repeat(400)}` }),
    );
    const limited = await load(dir, "limited", items, privacy, true, undefined, async (warehouse) => {
      await warehouse.connection.run("SET memory_limit = '8MB'");
    });
    expect(limited.rows.length).toBe(items.length);
    expect(limited.warnings.join("\n")).toMatch(/raised the limit to \d+ MB and retried/);
  } finally {
    await cleanup();
  }
});

describe("a batch's oldest and newest calls are compared as instants", () => {
  test("fractions of any length and zone offsets", () => {
    expect(epochMicros("2026-03-01T10:00:00Z")).toBe(Date.UTC(2026, 2, 1, 10) * 1000);
    expect(epochMicros("2026-03-01T10:00:00.5Z")).toBe(Date.UTC(2026, 2, 1, 10) * 1000 + 500_000);
    expect(epochMicros("2026-03-01T10:00:00.1234Z")).toBe(Date.UTC(2026, 2, 1, 10) * 1000 + 123_400);
    expect(epochMicros("2026-03-01T10:00:00.123456Z")).toBe(Date.UTC(2026, 2, 1, 10) * 1000 + 123_456);
    expect(epochMicros("2026-03-01T15:30:00.000001+05:30")).toBe(Date.UTC(2026, 2, 1, 10) * 1000 + 1);
    // noteRecord reads and writes only these fields of a batch.
    const batch = { minCreatedAt: null, maxCreatedAt: null };
    for (const time of ["2026-03-01T10:00:00.5Z", "2026-03-01T10:00:00Z", "2026-03-01T10:30:00+05:00"]) {
      noteRecord(batch as unknown as Batch, time);
    }
    expect(batch.minCreatedAt).toBe("2026-03-01T10:30:00+05:00");
    expect(batch.maxCreatedAt).toBe("2026-03-01T10:00:00.5Z");
  });

  test("isEarlier agrees with the instants, whether it compares text or parses", () => {
    const times = [
      "2026-03-01T10:00:00Z",
      "2026-03-01T10:00:00.5Z",
      "2026-03-01T10:00:00.100000Z",
      "2026-03-01T10:00:00.099999Z",
      "2026-03-01t10:00:01z",
      "2026-03-01T09:59:59.999999Z",
      "2026-03-01T15:30:00.000001+05:30",
      "2026-02-28T23:00:00-11:00",
      "2025-12-31T23:59:59Z",
      "2026-03-01T10:00:00.000000Z",
    ];
    for (const a of times) {
      for (const b of times) expect(isEarlier(a, b), `${a} < ${b}`).toBe(epochMicros(a) < epochMicros(b));
    }
  });
});
