import { isoTimeSql } from "../log/isoTime.js";
import type { Warehouse } from "./database.js";
import type { DuckDBConnection } from "./duckdb.js";
import { sqlFile } from "./sqlFiles.js";

/**
 * The checkpoint of the api-calls scan, and the only module that reads or writes its tables:
 * internal.export_state (one row: where an interrupted scan resumes, the newest call stored, the user whose
 * history this is, and the settings the stored data was built with) and internal.page_ladder (a page token
 * per scanned page, where later runs can start). A position is written by `commitPosition` inside
 * the transaction that commits the rows it covers, so the stored position never runs ahead of the
 * stored rows, nor behind them.
 */

/** The stored position, as a run starts from it. */
export interface Checkpoint {
  userId: string | null;
  /** Sealed page token where an interrupted scan continues; null once a scan reached the end. */
  resumeToken: string | null;
  highWaterCreated: string | null;
}

/** A position the scan reached: the sealed next_page token after a page, and that page's last key. */
export interface Rung {
  lastCreatedAt: string;
  sealedToken: string;
}

/** What a committed batch moves the position to. */
export interface Position {
  /** One rung per page of the batch. */
  rungs: readonly Rung[];
  /** Where to resume if the run stops after this batch (sealed), or null when the scan ended. */
  resumeToken: string | null;
  /** The batch's newest created_at: the high-water mark only ever moves forward. */
  maxCreatedAt: string | null;
  /** Set on the first batch ever: the user whose history this database holds from now on. */
  userId: string | null;
  runId: string;
  /** The check of the secret key the batch's hashes and tokens are made with (SecretBox.keyCheck). */
  secretKeyCheck: string;
}

/** Rungs per INSERT: a statement per rung would cost a round trip to DuckDB per page. */
const RUNGS_PER_STATEMENT = 500;

export async function readCheckpoint(warehouse: Warehouse): Promise<Checkpoint> {
  const { connection } = warehouse;
  await ensureStateRow(connection);
  const result = await connection.runAndReadAll(
    `SELECT user_id::VARCHAR, resume_token, ${isoTimeSql("high_water_created")} FROM internal.export_state`,
  );
  const [userId, resumeToken, highWater] = (result.getRows()[0] ?? []) as (string | null)[];
  return { userId: userId ?? null, resumeToken: resumeToken ?? null, highWaterCreated: highWater ?? null };
}

/**
 * Writes the position a batch reaches. Called inside the transaction that commits the batch's
 * rows: the caller owns the transaction.
 */
export async function commitPosition(connection: DuckDBConnection, position: Position): Promise<void> {
  const { rungs, runId } = position;
  for (let start = 0; start < rungs.length; start += RUNGS_PER_STATEMENT) {
    const chunk = rungs.slice(start, start + RUNGS_PER_STATEMENT);
    const values = chunk.map((_, i) => `($${3 * i + 1}, $${3 * i + 2}, $${3 * i + 3})`);
    await connection.run(
      `INSERT INTO internal.page_ladder (last_created_at, token, run_id) VALUES ${values.join(", ")}`,
      chunk.flatMap((rung) => [rung.lastCreatedAt, rung.sealedToken, runId]),
    );
  }
  if (position.userId !== null) {
    await connection.run("UPDATE internal.export_state SET user_id = $user::UUID WHERE user_id IS NULL", {
      user: position.userId,
    });
  }
  await connection.run(
    "UPDATE internal.export_state SET resume_token = $token, resume_run_id = $run, high_water_created = greatest(high_water_created, $max::TIMESTAMPTZ), secret_key_check = $key_check",
    {
      token: position.resumeToken,
      run: runId,
      max: position.maxCreatedAt,
      key_check: position.secretKeyCheck,
    },
  );
}

/**
 * What tells which secret key the stored data is made with: the check the last batch recorded,
 * and the newest sealed page token (the resume token, else the newest run's newest rung), for a
 * database made before the check.
 */
export async function readKeyEvidence(
  warehouse: Warehouse,
): Promise<{ keyCheck: string | null; sealedToken: string | null }> {
  const reader = await warehouse.connection.runAndReadAll(
    `SELECT secret_key_check,
       coalesce(resume_token,
                (SELECT token FROM internal.page_ladder ORDER BY run_id DESC, last_created_at DESC LIMIT 1))
     FROM internal.export_state`,
  );
  const [keyCheck, sealedToken] = reader.getRowsJS()[0] ?? [null, null];
  return {
    keyCheck: typeof keyCheck === "string" ? keyCheck : null,
    sealedToken: typeof sealedToken === "string" ? sealedToken : null,
  };
}

/**
 * Records the secret key the data just stored is made with: in the transaction of a listing's
 * batch, or for a database whose key was proven otherwise (warehouseKey.ts).
 */
export async function recordKeyCheck(warehouse: Warehouse, keyCheck: string): Promise<void> {
  await ensureStateRow(warehouse.connection);
  await warehouse.connection.run("UPDATE internal.export_state SET secret_key_check = $key_check", {
    key_check: keyCheck,
  });
}

/** Rungs a start tries: a full scan after a change of key leaves a rung of the new key per page. */
const RUNGS_TRIED = 64;

/**
 * The newest rungs strictly before `windowStart`, newest first: each token lists every call from
 * windowStart on. Several, since a rung sealed with a secret key given up (--new-secret-key) stays
 * until the ladder is pruned, and the run starts from the newest one its key opens.
 */
export async function findLadderRungs(warehouse: Warehouse, windowStart: string): Promise<string[]> {
  const result = await warehouse.connection.runAndReadAll(
    `SELECT token FROM internal.page_ladder WHERE last_created_at < $start::TIMESTAMPTZ
     ORDER BY last_created_at DESC, run_id DESC LIMIT ${RUNGS_TRIED}`,
    { start: windowStart },
  );
  return result.getRows().map((row) => String(row[0]));
}

/**
 * Brings a high-water mark after `now` + `toleranceMs` (a far-future call stored by a version that
 * did not bound it) back to `now`, so the lookback window starts among real calls again. Returns
 * the mark it replaced, or undefined when it was in range. Compared in SQL: a mark in year 10000
 * has no text Date.parse reads.
 */
export async function clampHighWater(
  warehouse: Warehouse,
  now: Date,
  toleranceMs: number,
): Promise<string | undefined> {
  const { connection } = warehouse;
  const bound = new Date(now.getTime() + toleranceMs).toISOString();
  const result = await connection.runAndReadAll(
    `SELECT ${isoTimeSql("high_water_created")} FROM internal.export_state WHERE high_water_created > $bound::TIMESTAMPTZ`,
    { bound },
  );
  const row = result.getRows()[0];
  if (row === undefined) return undefined;
  await connection.run("UPDATE internal.export_state SET high_water_created = $now::TIMESTAMPTZ", {
    now: now.toISOString(),
  });
  return String(row[0]);
}

/**
 * Forgets every stored page token (the resume token and the ladder), for when the API no longer
 * accepts them: the next scan starts from the beginning. The high-water mark and user stay.
 */
export async function forgetPositions(warehouse: Warehouse): Promise<void> {
  const { connection } = warehouse;
  await connection.run("DELETE FROM internal.page_ladder");
  await connection.run("UPDATE internal.export_state SET resume_token = NULL");
}

/**
 * After a scan that reached the end: nothing to resume, and the ladder thinned. Every rung from
 * twice the lookback before the high-water mark is kept: a run never starts earlier.
 */
export async function finishScan(warehouse: Warehouse, now: Date, lookbackMs: number): Promise<void> {
  const { connection } = warehouse;
  await connection.run(
    "UPDATE internal.export_state SET resume_token = NULL, last_complete_scan = $now::TIMESTAMPTZ",
    {
      now: now.toISOString(),
    },
  );
  const { highWaterCreated } = await readCheckpoint(warehouse);
  if (highWaterCreated === null) return;
  const keepFrom = new Date(Date.parse(highWaterCreated) - 2 * lookbackMs).toISOString();
  await connection.run(sqlFile("statements/prune_ladder.sql"), { keep_from: keepFrom });
}

/** The settings the stored data was built with (null before the first run stored them). */
export interface StoredSettings {
  durationUnit: string | null;
  partitioning: string | null;
}

export async function readStoredSettings(connection: DuckDBConnection): Promise<StoredSettings> {
  await ensureStateRow(connection);
  const result = await connection.runAndReadAll(
    "SELECT duration_unit, partitioning FROM internal.export_state",
  );
  const [durationUnit, partitioning] = (result.getRows()[0] ?? [null, null]) as (string | null)[];
  return { durationUnit: durationUnit ?? null, partitioning: partitioning ?? null };
}

export async function storeSettings(
  connection: DuckDBConnection,
  settings: { durationUnit: string; partitioning: string },
): Promise<void> {
  await connection.run(
    "UPDATE internal.export_state SET duration_unit = $unit, partitioning = $partitioning",
    {
      unit: settings.durationUnit,
      partitioning: settings.partitioning,
    },
  );
}

/**
 * export_state has exactly one row, made on first use. Inserted only when the table is empty
 * rather than with ON CONFLICT, which probes the primary key's index on every call (a few times
 * each run) for a row that is nearly always there.
 */
async function ensureStateRow(connection: DuckDBConnection): Promise<void> {
  await connection.run(
    "INSERT INTO internal.export_state (singleton) SELECT true WHERE NOT EXISTS (SELECT 1 FROM internal.export_state)",
  );
}
