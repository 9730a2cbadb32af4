import type { Warehouse } from "../load/database.js";

/** The checkpoint row of export_state, as the pipeline needs it. */
export interface ExportState {
  userId: string | null;
  resumeToken: string | null;
  highWaterCreated: string | null;
}

export async function readExportState(warehouse: Warehouse): Promise<ExportState> {
  const { connection } = warehouse;
  await connection.run("INSERT INTO export_state (singleton) VALUES (true) ON CONFLICT DO NOTHING");
  const result = await connection.runAndReadAll(
    "SELECT user_id::VARCHAR, resume_token, strftime(high_water_created, '%Y-%m-%dT%H:%M:%S.%fZ') FROM export_state",
  );
  const [userId, resumeToken, highWater] = (result.getRows()[0] ?? []) as (string | null)[];
  return { userId: userId ?? null, resumeToken: resumeToken ?? null, highWaterCreated: highWater ?? null };
}

/** The newest rung strictly before `windowStart`: its token lists every call from windowStart on. */
export async function findLadderRung(warehouse: Warehouse, windowStart: string): Promise<string | null> {
  const result = await warehouse.connection.runAndReadAll(
    "SELECT token FROM page_ladder WHERE last_created_at < $start::TIMESTAMPTZ ORDER BY last_created_at DESC, run_id DESC LIMIT 1",
    { start: windowStart },
  );
  const row = result.getRows()[0];
  return row === undefined ? null : String(row[0]);
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
    "SELECT high_water_created::VARCHAR FROM export_state WHERE high_water_created > $bound::TIMESTAMPTZ",
    { bound },
  );
  const row = result.getRows()[0];
  if (row === undefined) return undefined;
  await connection.run("UPDATE export_state SET high_water_created = $now::TIMESTAMPTZ", {
    now: now.toISOString(),
  });
  return String(row[0]);
}
