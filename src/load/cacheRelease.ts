import type { DuckDBConnection } from "./duckdb.js";

// Cached table blocks kept up to CACHE_KEPT_MB: a batch rereads only its table's newest blocks
// (operations: their calls' span of time), a Parquet partition only its month.
const CACHE_KEPT_MB = 16;
const CACHE_RELEASED_TO_MB = 8;

/**
 * Lets go of the table blocks DuckDB keeps cached once they pass CACHE_KEPT_MB: it keeps what it
 * wrote or read until it nears its limit, so a long run would hold much of the history. The limit
 * is lowered for a moment, which evicts what no statement holds, then set back to `limitMb`; no
 * statement runs at the lowered limit.
 */
export async function releaseCachedBlocks(connection: DuckDBConnection, limitMb: number): Promise<void> {
  const cached = await connection.runAndReadAll(
    "SELECT (coalesce(sum(memory_usage_bytes), 0) // 1048576)::INTEGER FROM duckdb_memory() WHERE tag = 'BASE_TABLE'",
  );
  if (Number(cached.getRows()[0]?.[0] ?? 0) <= CACHE_KEPT_MB) return;
  // Refused when more than that is in use: then what could go has gone.
  await connection.run(`SET memory_limit = '${CACHE_RELEASED_TO_MB}MB'`).catch(() => undefined);
  // Not caught: a writer left at the lowered limit would fail its next batches.
  await connection.run(`SET memory_limit = '${limitMb}MB'`);
}
