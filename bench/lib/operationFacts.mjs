import path from "node:path";
import { pathToFileURL } from "node:url";
import { DuckDBInstance, quotedString } from "@duckdb/node-api";
import { ROOT } from "./paths.mjs";

// The export's own list of operation-starting endpoints, from the build the benchmark runs.
const { OPERATION_STARTING_TEMPLATES } = await import(
  pathToFileURL(path.join(ROOT, "dist", "transform", "operationRow.js")).href
);

/** Calls that started an operation, as sql/statements/candidate_operations.sql picks them (stored state aside). */
const STARTED_OPERATION = `method = 'POST'
  AND list_contains([${OPERATION_STARTING_TEMPLATES.map((t) => quotedString(t)).join(", ")}], endpoint_template)
  AND (status_code IS NULL OR status_code BETWEEN 200 AND 299)
  AND NOT coalesce(user_agent LIKE 'zoo-usage/%', false)`;

async function withDb(db, work) {
  const instance = await DuckDBInstance.create(db, { access_mode: "READ_ONLY" });
  const connection = await instance.connect();
  try {
    return await work(async (sql, params) => (await connection.runAndReadAll(sql, params)).getRows());
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

/**
 * What the benchmark needs from a warehouse about operations: the ids the export fetched (every
 * stored operation, found or not), the ids of the calls created since `since` that started one (the
 * default window's share), and the stored operations not yet final (a later run asks again).
 */
export function operationFacts(db, { since }) {
  return withDb(db, async (query) => {
    const fetched = (await query("SELECT id::VARCHAR FROM async_operations ORDER BY id")).map(([id]) => id);
    const inWindow = (
      await query(
        `SELECT id::VARCHAR FROM api_calls WHERE ${STARTED_OPERATION}
           AND created_at >= $since::TIMESTAMPTZ ORDER BY created_at, id`,
        { since },
      )
    ).map(([id]) => id);
    const started = (await query(`SELECT count(*)::INTEGER FROM api_calls WHERE ${STARTED_OPERATION}`))[0][0];
    const unfinished = (
      await query(
        `SELECT count(*)::INTEGER FROM async_operations
         WHERE fetch_status = 'found' AND status NOT IN ('completed', 'failed')`,
      )
    )[0][0];
    return { fetched, inWindow, started, unfinished };
  });
}

/** Calls first seen by `runId` that started an operation: the operations a nightly run fetches new. */
export function newOperationCalls(db, runId) {
  return withDb(
    db,
    async (query) =>
      (
        await query(
          `SELECT count(*)::INTEGER FROM api_calls WHERE ${STARTED_OPERATION} AND first_seen_run_id = $run`,
          { run: runId },
        )
      )[0][0],
  );
}
