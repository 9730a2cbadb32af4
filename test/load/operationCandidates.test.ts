import { expect, test } from "vitest";
import type { Warehouse } from "../../src/load/database.js";
import { quotedString } from "../../src/load/duckdb.js";
import { OPERATION_STARTING_TEMPLATES } from "../../src/transform/operationRow.js";
import { withTempWarehouse } from "../helpers/exportHarness.js";
import { sqlText } from "../helpers/tableShapes.js";

/**
 * Which calls have their operation fetched (candidate_operations.sql), and which are counted as left
 * outside the window (operations_outside_window.sql), on one call of each kind either side of it.
 */

const WINDOW_START = "2026-03-01T00:00:00Z";
const BEFORE = "2026-02-20T00:00:00Z";
const INSIDE = "2026-03-05T00:00:00Z";
const STARTS_ONE = "/file/conversion/{src_format}/{output_format}";

interface CallCase {
  name: string;
  at: string;
  method?: string;
  template?: string;
  status?: number | null;
  agent?: string;
  own?: boolean;
  /** The operation stored for it: its fetch status, and status when found. */
  operation?: { fetch: "found" | "not_found" | "rejected"; status?: string };
}

const CASES: CallCase[] = [
  { name: "new", at: INSIDE },
  { name: "new, no status", at: INSIDE, status: null },
  { name: "new, 200", at: INSIDE, status: 200 },
  { name: "old", at: BEFORE },
  { name: "old, no status", at: BEFORE, status: null },
  { name: "new GET", at: INSIDE, method: "GET" },
  { name: "old GET", at: BEFORE, method: "GET" },
  { name: "new, failed", at: INSIDE, status: 500 },
  { name: "old, failed", at: BEFORE, status: 400 },
  { name: "new, other endpoint", at: INSIDE, template: "/user/api-calls" },
  { name: "old, other endpoint", at: BEFORE, template: "/user/api-calls" },
  { name: "new, own agent", at: INSIDE, agent: "zoo-usage/1.0" },
  { name: "old, own agent", at: BEFORE, agent: "zoo-usage/1.0" },
  { name: "new, own id", at: INSIDE, own: true },
  { name: "old, own id", at: BEFORE, own: true },
  { name: "new, running", at: INSIDE, operation: { fetch: "found", status: "in_progress" } },
  { name: "old, queued", at: BEFORE, operation: { fetch: "found", status: "queued" } },
  { name: "old, uploaded", at: BEFORE, operation: { fetch: "found", status: "uploaded" } },
  { name: "new, completed", at: INSIDE, operation: { fetch: "found", status: "completed" } },
  { name: "old, failed job", at: BEFORE, operation: { fetch: "found", status: "failed" } },
  { name: "new, not found", at: INSIDE, operation: { fetch: "not_found" } },
  { name: "old, not found", at: BEFORE, operation: { fetch: "not_found" } },
  { name: "new, rejected", at: INSIDE, operation: { fetch: "rejected" } },
];

const idOf = (index: number) => `0198c2a4-6a7b-7cc4-9d3e-${String(index + 1).padStart(12, "0")}`;

async function addCases(warehouse: Warehouse): Promise<void> {
  const { connection } = warehouse;
  for (const [index, call] of CASES.entries()) {
    const id = idOf(index);
    await connection.run(
      `INSERT INTO api_calls BY NAME
       SELECT $id::UUID AS id, $id::UUID AS user_id, $method AS method, $template AS endpoint_template,
         $status::INTEGER AS status_code, $at::TIMESTAMPTZ AS created_at, $at::TIMESTAMPTZ AS updated_at,
         $agent AS user_agent, 'run' AS first_seen_run_id, 'run' AS last_changed_run_id`,
      {
        id,
        method: call.method ?? "POST",
        template: call.template ?? STARTS_ONE,
        status: call.status === undefined ? 201 : call.status,
        at: call.at,
        agent: call.agent ?? "python-requests/2.32.3",
      },
    );
    if (call.own)
      await connection.run("INSERT INTO internal.own_calls (id, run_id) VALUES ($id::UUID, 'run')", { id });
    if (call.operation !== undefined) {
      await connection.run(
        `INSERT INTO async_operations BY NAME
         SELECT $id::UUID AS id, $at::TIMESTAMPTZ AS call_created_at, $fetch AS fetch_status, $status AS status,
           now() AS fetched_at, 'run' AS fetch_run_id`,
        { id, at: call.at, fetch: call.operation.fetch, status: call.operation.status ?? null },
      );
    }
  }
}

/** The endpoints that start an operation, as the list literal the queries take. */
const TEMPLATES = `[${OPERATION_STARTING_TEMPLATES.map((template) => quotedString(template)).join(", ")}]`;

async function query(warehouse: Warehouse, file: string, params: Record<string, string | number>) {
  const sql = (await sqlText(file)).replaceAll("{{templates}}", TEMPLATES);
  return (await warehouse.connection.runAndReadAll(sql, params)).getRows();
}

const namesOf = (ids: unknown[]) => ids.map((id) => CASES[CASES.findIndex((_, i) => idOf(i) === id)]?.name);

test("candidates: new calls that started an operation not stored yet, and unfinished ones however old", async () => {
  await withTempWarehouse(async (warehouse) => {
    await addCases(warehouse);
    const rows = await query(warehouse, "statements/candidate_operations.sql", {
      window_start: WINDOW_START,
      after_created: "1970-01-01T00:00:00Z",
      after_id: "00000000-0000-0000-0000-000000000000",
      limit: 100,
    });
    expect(namesOf(rows.map(([id]) => id))).toEqual([
      "old, queued",
      "old, uploaded",
      "new",
      "new, no status",
      "new, 200",
      "new, running",
    ]);
  });
});

test("outside the window: old calls that started an operation never fetched", async () => {
  await withTempWarehouse(async (warehouse) => {
    await addCases(warehouse);
    const rows = await query(warehouse, "statements/operations_outside_window.sql", {
      window_start: WINDOW_START,
    });
    // "old" and "old, no status".
    expect(rows).toEqual([[2n]]);
  });
});

test("the candidates in two parts bounded in time are what one condition over every call lists", async () => {
  await withTempWarehouse(async (warehouse) => {
    await addCases(warehouse);
    // Another unfinished operation, its call the oldest of all: the second part's bound moves to it.
    const oldest = "0198c2a4-6a7b-7cc4-9d3e-0000000000ff";
    await warehouse.connection.run(
      `INSERT INTO api_calls BY NAME
       SELECT $id::UUID AS id, $id::UUID AS user_id, 'POST' AS method, $template AS endpoint_template,
         202 AS status_code, '2025-01-01T00:00:00Z'::TIMESTAMPTZ AS created_at,
         '2025-01-01T00:00:00Z'::TIMESTAMPTZ AS updated_at, 'run' AS first_seen_run_id, 'run' AS last_changed_run_id`,
      { id: oldest, template: STARTS_ONE },
    );
    await warehouse.connection.run(
      `INSERT INTO async_operations BY NAME
       SELECT $id::UUID AS id, '2025-01-01T00:00:00Z'::TIMESTAMPTZ AS call_created_at, 'found' AS fetch_status,
         'in_progress' AS status, now() AS fetched_at, 'run' AS fetch_run_id`,
      { id: oldest },
    );
    const read = async (sql: string) =>
      (await warehouse.connection.runAndReadAll(sql, { window_start: WINDOW_START })).getRows();
    const twoParts = await read(
      `SELECT id::VARCHAR FROM operation_candidates(${TEMPLATES}, $window_start::TIMESTAMPTZ) ORDER BY id`,
    );
    const oneCondition = await read(
      `SELECT c.id::VARCHAR FROM operation_starting_calls(${TEMPLATES}) AS c
       WHERE (NOT c.operation_stored AND c.created_at >= $window_start::TIMESTAMPTZ)
         OR (c.operation_fetch_status = 'found' AND c.operation_status NOT IN ('completed', 'failed'))
       ORDER BY c.id`,
    );
    expect(twoParts).toEqual(oneCondition);
    expect(twoParts.map(([id]) => id)).toContain(oldest);
    expect(twoParts).toHaveLength(7);
  });
});
