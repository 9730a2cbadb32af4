import { readdirSync, rmdirSync, rmSync } from "node:fs";
import { readdir, rm, rmdir } from "node:fs/promises";
import path from "node:path";

// DuckDB's spill folder of a writer: `<db>.tmp`, beside the file (database.ts sets temp_directory).

/**
 * Spill files of a process that was killed (DuckDB removes its own at close): nobody else can be
 * using them, since DuckDB gives a file to one writer or to readers, and this process now holds it
 * for writing. Only DuckDB's own names (duckdb_temp_storage_*, duckdb_temp_block-*) are removed.
 */
export async function removeStaleSpillFiles(dir: string): Promise<void> {
  const entries = await readdir(dir).catch(() => [] as string[]);
  for (const entry of entries) {
    if (entry.startsWith("duckdb_temp_")) await rm(path.join(dir, entry), { force: true });
  }
  if (entries.length > 0) await rmdir(dir).catch(() => undefined);
}

/**
 * The spill folder once the writer has closed: DuckDB removes its own files at close, and nobody
 * else used the folder (one writer per file, and no reader while it writes). Only DuckDB's names are
 * removed, and the folder only once it is empty.
 */
export function removeSpillFolderSync(dir: string): void {
  try {
    for (const entry of readdirSync(dir)) {
      if (entry.startsWith("duckdb_temp_")) rmSync(path.join(dir, entry), { force: true });
    }
    rmdirSync(dir);
  } catch {
    // No folder (nothing spilled), or something else left in it: kept as it is.
  }
}
