import { existsSync } from "node:fs";
import { copyFile } from "node:fs/promises";
import path from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { storeCallClasses } from "../../src/load/callClasses.js";
import { type LateBillingOptions, startSimulator } from "../../src/sim/index.js";
import { exportOnce, tempWorkspace } from "../helpers/exportHarness.js";

/** A warehouse built by the real pipeline: the simulator in-process, then one export. */
export async function buildWarehouse(options: {
  seed: number;
  calls: number;
  days: number;
  priceMode?: "realistic" | "adversarial";
  invoiceDisagreement?: boolean;
  lateBilling?: LateBillingOptions;
}): Promise<{
  dir: string;
  db: string;
  cleanup: () => Promise<void>;
}> {
  const workspace = await tempWorkspace();
  const sim = await startSimulator({ ...options, users: 1 });
  try {
    const { exitCode } = await exportOnce({
      baseUrl: sim.url,
      token: sim.users[0]?.token ?? "",
      flags: { db: workspace.db, out: workspace.out, limit: 1000 },
    });
    if (exitCode !== 0) throw new Error(`the fixture export ended with exit code ${exitCode}`);
  } finally {
    await sim.close();
  }
  return { dir: workspace.dir, db: workspace.db, cleanup: workspace.cleanup };
}

/**
 * Runs statements on a database file opened for writing, then closes it (a test's own edits). What
 * the loader derives from the calls (their classes, the grains the report reads) is then made again
 * from them, as the loader would after storing such calls; `derive: false` for a database made to
 * look older than those.
 */
export async function editDb(
  db: string,
  statements: string[],
  options: { derive?: boolean } = {},
): Promise<void> {
  const instance = await DuckDBInstance.create(db);
  const connection = await instance.connect();
  try {
    await connection.run("SET TimeZone = 'UTC'");
    for (const statement of statements) await connection.run(statement);
    if (options.derive !== false) await storeCallClasses(connection, { all: true });
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

/** A copy of a (closed) database file beside it, for a variant of the fixture. */
export async function copyDb(db: string, name: string): Promise<string> {
  const copy = path.join(path.dirname(db), name);
  await copyFile(db, copy);
  if (existsSync(`${db}.wal`)) await copyFile(`${db}.wal`, `${copy}.wal`);
  return copy;
}

/**
 * Stand-ins for the operation views the report reads, with the columns the report expects: figures
 * derived from api_calls, so that they are not empty and the tests can derive them too. CREATE OR
 * REPLACE, over the views the export created.
 */
export const OPERATION_VIEW_FIXTURES = [
  `CREATE OR REPLACE VIEW cost_per_operation_type AS
   SELECT
     regexp_extract(endpoint_template, '^/(\\w+)', 1) AS operation_type,
     CASE WHEN status_code >= 400 THEN 'failed' WHEN completed_at IS NULL THEN 'in_progress' ELSE 'completed' END AS status,
     count(*) AS operations,
     coalesce(sum(price_usd), 0)::DECIMAL(18, 6) AS cost_usd
   FROM api_calls
   WHERE method = 'POST'
   GROUP BY ALL`,
  `CREATE OR REPLACE VIEW billed_failed_operations AS
   SELECT id, regexp_extract(endpoint_template, '^/(\\w+)', 1) AS operation_type,
     'status ' || status_code AS error, price_usd, created_at
   FROM api_calls
   WHERE method = 'POST' AND status_code >= 400 AND price_usd > 0`,
];

export const DROP_OPERATION_VIEWS = [
  "DROP VIEW IF EXISTS cost_per_operation_type",
  "DROP VIEW IF EXISTS billed_failed_operations",
];
