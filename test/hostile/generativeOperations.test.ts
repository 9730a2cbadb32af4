import { mkdir } from "node:fs/promises";
import path from "node:path";
import fc from "fast-check";
import { expect, test } from "vitest";
import { OperationLoader } from "../../src/load/operationLoader.js";
import { transformOperation } from "../../src/transform/operationRow.js";
import { ABSENT, dateTime, text } from "../helpers/drawnValues.js";
import { withTempWarehouse } from "../helpers/exportHarness.js";
import { HOSTILE_USER_ID } from "../helpers/hostileApi.js";

/**
 * Async operation bodies drawn with odd values where they fill typed columns: whatever the
 * validator (transformOperation) accepts, DuckDB must load without the loader's safety net.
 */

/** Values for the fields of an operation body that fill typed columns, or none. */
const operationValue = fc.oneof(
  dateTime.map((drawn) => drawn.value),
  text.map((drawn) => drawn.value),
  fc.constantFrom(HOSTILE_USER_ID, "not-a-uuid", null, 7, 1e300, -0, true, ABSENT),
  fc.jsonValue({ maxDepth: 3 }),
);

const operationBody = fc.record({
  type: fc.constantFrom("file_volume", "file_teleport", "text_to_cad_v2"),
  fields: fc.dictionary(
    fc.constantFrom(
      "user_id",
      "created_at",
      "started_at",
      "completed_at",
      "updated_at",
      "status",
      "error",
      "conversation_id",
      "volume",
      "output_unit",
      "src_format",
      "outputs",
      "prompt",
      "__proto__",
    ),
    operationValue,
    { maxKeys: 6 },
  ),
});

test("any drawn operation body the validator accepts loads, and DuckDB refuses none", async () => {
  await withTempWarehouse(async (warehouse, dir) => {
    const spoolDir = path.join(dir, "spool");
    await mkdir(spoolDir);
    const loader = new OperationLoader(warehouse, { runId: "run", spoolDir, partitioning: "month" });
    let counter = 0;
    let accepted = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(operationBody, { minLength: 1, maxLength: 6 }), async (bodies) => {
        const rows = [];
        for (const { type, fields } of bodies) {
          counter += 1;
          const id = `0a1b2c3d-0000-4000-9000-${String(counter).padStart(12, "0")}`;
          await warehouse.connection.run(
            "INSERT INTO api_calls (id, user_id, method, created_at, updated_at, first_seen_run_id, last_changed_run_id) VALUES ($id::UUID, $id::UUID, 'POST', now(), now(), 'run', 'run')",
            { id },
          );
          const body: Record<string, unknown> = {
            id,
            type,
            status: "completed",
            user_id: HOSTILE_USER_ID,
            created_at: "2026-10-01T00:00:00Z",
            updated_at: "2026-10-01T00:00:00Z",
            src_format: "obj",
            output_unit: "m3",
          };
          for (const [key, value] of Object.entries(fields)) {
            if (value === ABSENT) delete body[key];
            else
              Object.defineProperty(body, key, {
                value,
                enumerable: true,
                writable: true,
                configurable: true,
              });
          }
          const wire = JSON.parse(JSON.stringify(body));
          const result = transformOperation(id, wire, "2026-10-02T00:00:00Z");
          if (result.ok) rows.push(result.row);
        }
        accepted += rows.length;
        const committed = await loader.commit(rows, []);
        expect(committed.refusedByDuckDb).toBe(0);
      }),
      { numRuns: 40, seed: Number(process.env.GEN_SEED ?? 20261123), endOnFailure: true },
    );
    // The draws must reach the loader, or this proves nothing.
    expect(accepted).toBeGreaterThan(20);
  });
});
