import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type RunningSimulator, startSimulator } from "../../src/sim/index.js";
import { exportOnce, queryDb, tempWorkspace } from "../helpers/exportHarness.js";

/**
 * The README's example queries are what a finance team copies first: each ```sql block runs
 * against an export of the simulator (months of calls, invoices and a credits balance) and returns
 * rows, so that a renamed view or column fails here before a reader meets it.
 */
const README = readFileSync(path.resolve(import.meta.dirname, "../../README.md"), "utf8");
const QUERIES = [...README.matchAll(/^```sql\n([\s\S]*?)^```$/gm)].map((match) => match[1] ?? "");

let sim: RunningSimulator;
const workspace = tempWorkspace();

beforeAll(async () => {
  sim = await startSimulator({ seed: 3, calls: 3000, days: 75 });
  const { db, out } = await workspace;
  const { exitCode } = await exportOnce({
    baseUrl: sim.url,
    token: sim.users[0]?.token ?? "",
    flags: { db, out, operations: false },
    now: () => sim.clock.now(),
  });
  expect(exitCode).toBe(0);
});

afterAll(async () => {
  await sim.close();
  await (await workspace).cleanup();
});

describe("the README's example queries", () => {
  test("there are five, one statement each", () => {
    expect(QUERIES).toHaveLength(5);
    for (const query of QUERIES) expect(query.trim().match(/;/g)).toHaveLength(1);
  });

  test.each(QUERIES.map((query) => [query.split("\n")[1]?.trim() ?? "", query]))(
    "%s ... returns rows",
    async (_from, query) => {
      const rows = await queryDb((await workspace).db, query);
      expect(rows.length).toBeGreaterThan(0);
      // Every column the query names is there with a value in some row: no column of NULLs.
      for (const column of Object.keys(rows[0] ?? {})) {
        expect(
          rows.some((row) => row[column] !== null),
          column,
        ).toBe(true);
      }
    },
  );
});
