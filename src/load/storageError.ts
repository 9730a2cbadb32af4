import { ZooUsageError } from "../errors.js";

/** File-system error codes that mean "cannot write here", with what to do about each. */
const STORAGE_HINTS: Record<string, string> = {
  ENOSPC: "The disk is full: free space and re-run; the database is unchanged by the failed batch.",
  EDQUOT: "The disk quota is exhausted: free space and re-run.",
  EFBIG: "A file-size limit was hit (ulimit -f, or the file system's maximum): raise it and re-run.",
  EACCES: "Permission denied: make the path writable, or choose another --db / --out.",
  EPERM: "Permission denied: make the path writable, or choose another --db / --out.",
  EROFS: "The file system is read-only: choose another --db / --out.",
};

/** DuckDB reports storage failures as text; these are the ones that mean the same as the codes above. */
const DUCKDB_STORAGE =
  /IO Error|No space left|File too large|Permission denied|Read-only file system|Disk quota/i;

/**
 * Maps a failure to write (the spool, the database, a Parquet file) to a clear error naming what
 * could not be written and why, instead of an "unexpected failure". Other errors pass through.
 */
export function asStorageError(cause: unknown, what: string): unknown {
  if (cause instanceof ZooUsageError) return cause;
  const code = (cause as NodeJS.ErrnoException | null)?.code;
  const message = cause instanceof Error ? cause.message : String(cause);
  const hint =
    (code !== undefined ? STORAGE_HINTS[code] : undefined) ??
    (DUCKDB_STORAGE.test(message) ? storageHint(message) : undefined);
  if (hint === undefined) return cause;
  return new ZooUsageError({
    code: "output.unwritable",
    message: `Cannot write ${what}: ${message}`,
    hint,
    cause,
  });
}

function storageHint(message: string): string {
  if (/No space left/i.test(message)) return STORAGE_HINTS.ENOSPC ?? "";
  if (/File too large/i.test(message)) return STORAGE_HINTS.EFBIG ?? "";
  if (/Permission denied/i.test(message)) return STORAGE_HINTS.EACCES ?? "";
  return "Check the disk (space, permissions, file-size limits) and re-run; committed data is intact.";
}
