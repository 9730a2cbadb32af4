import { mkdir } from "node:fs/promises";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { OperationCandidates } from "../../src/load/operationCandidates.js";
import { OperationLoader, UNBOUNDED_CALL_TIMES } from "../../src/load/operationLoader.js";
import { CallTimeSpan } from "../../src/sources/operations/callTimeSpan.js";
import { notFoundOperation } from "../../src/transform/emptyOperation.js";
import { withTempWarehouse } from "../helpers/exportHarness.js";

/**
 * The loader finds each operation's call within the span of the batch's call times (CallTimeSpan),
 * taken from the candidates' created_at text: the span must hold every call of the batch to the
 * microsecond, or an operation would not be staged.
 */

const STARTS_ONE = "/file/conversion/{src_format}/{output_format}";
const CALLS = [
  { id: "0198c2a4-6a7b-7cc4-9d3e-000000000001", at: "2026-03-05T10:00:00.000001Z" },
  { id: "0198c2a4-6a7b-7cc4-9d3e-000000000002", at: "2026-03-05T10:00:00.999999Z" },
  { id: "0198c2a4-6a7b-7cc4-9d3e-000000000003", at: "2031-12-31T23:59:59.999999Z" },
  // Outside the batch below: the span leaves it out.
  { id: "0198c2a4-6a7b-7cc4-9d3e-000000000004", at: "2032-01-01T00:00:00.000000Z" },
];

describe("CallTimeSpan", () => {
  test("the earliest and latest time added; unbounded while empty", () => {
    const span = new CallTimeSpan();
    expect(span.bounds()).toEqual(UNBOUNDED_CALL_TIMES);
    for (const at of [
      "2026-03-05T10:00:00.500000Z",
      "2026-03-05T10:00:00.000001Z",
      "2031-01-01T00:00:00.000000Z",
    ])
      span.add(at);
    expect(span.bounds()).toEqual({ from: "2026-03-05T10:00:00.000001Z", to: "2031-01-01T00:00:00.000000Z" });
  });

  test.each([
    ["a time it was not told", undefined],
    ["a year past 9999", "10000-01-01T00:00:00.000000Z"],
    ["a year before 1000", "999-01-01T00:00:00.000000Z"],
    ["another form", "2026-03-05 10:00:00+00"],
  ])("%s leaves the span unbounded", (_, at) => {
    const span = new CallTimeSpan();
    span.add("2026-03-05T10:00:00.000001Z");
    span.add(at);
    span.add("2026-03-06T10:00:00.000001Z");
    expect(span.bounds()).toEqual(UNBOUNDED_CALL_TIMES);
  });
});

test("operations committed within their candidates' span are stored with their calls' created_at", async () => {
  await withTempWarehouse(async (warehouse, dir) => {
    const { connection } = warehouse;
    for (const { id, at } of CALLS) {
      await connection.run(
        `INSERT INTO api_calls BY NAME
         SELECT $id::UUID AS id, $id::UUID AS user_id, 'POST' AS method, $template AS endpoint_template,
           201 AS status_code, $at::TIMESTAMPTZ AS created_at, $at::TIMESTAMPTZ AS updated_at,
           'run' AS first_seen_run_id, 'run' AS last_changed_run_id`,
        { id, at, template: STARTS_ONE },
      );
    }
    const candidates = await new OperationCandidates(warehouse, { windowStart: null, chunkSize: 3 }).next();
    expect(candidates.map(({ id }) => id)).toEqual(CALLS.slice(0, 3).map(({ id }) => id));
    const span = new CallTimeSpan();
    for (const { callCreatedAt } of candidates) span.add(callCreatedAt);
    expect(span.bounds()).toEqual({ from: CALLS[0]?.at, to: CALLS[2]?.at });

    const spoolDir = path.join(dir, "spool");
    await mkdir(spoolDir);
    const loader = new OperationLoader(warehouse, { runId: "run", spoolDir, partitioning: "month" });
    const fetchedAt = "2026-11-01T00:00:00.000000Z";
    const rows = CALLS.map(({ id }) => notFoundOperation(id, fetchedAt));
    const result = await loader.commit(rows, [], span.bounds());
    expect(result.changed).toBe(3);
    const stored = await connection.runAndReadAll(
      "SELECT o.id::VARCHAR, o.call_created_at = c.created_at FROM async_operations AS o JOIN api_calls AS c USING (id) ORDER BY o.id",
    );
    expect(stored.getRows()).toEqual(CALLS.slice(0, 3).map(({ id }) => [id, true]));
  });
});
