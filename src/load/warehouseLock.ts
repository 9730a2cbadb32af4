import { setTimeout as sleep } from "node:timers/promises";
import { ExitCode, ZooUsageError } from "../errors.js";

/** DuckDB's words when the file's lock is refused: another process has the file open for writing. */
const LOCK_REFUSED = /Could not set lock on file/i;

/**
 * The waits before opening again while the lock's holder is gone, about a second in all. A process
 * that has just ended (a run killed a moment before this one started) can hold the lock while the
 * system closes its files: DuckDB then finds no holder when it asks who refused it, or names a
 * process that no longer exists.
 */
const HOLDER_GONE_WAITS_MS = [20, 40, 80, 160, 320, 400];

/**
 * Runs `open` (an ATTACH or a read-only instance of `file`), opening again while the lock it met
 * belongs to no living process, and turns DuckDB's error into one that says what to do. A lock
 * held by a running process fails at once: a second export must not wait behind the first.
 */
export async function openUnlessLocked<T>(file: string, open: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await open();
    } catch (cause) {
      const detail = cause instanceof Error ? cause.message : String(cause);
      const wait = HOLDER_GONE_WAITS_MS[attempt];
      if (!LOCK_REFUSED.test(detail) || wait === undefined || !holderGone(detail)) {
        throw openError(file, detail, cause);
      }
      await sleep(wait);
    }
  }
}

/** The PID DuckDB names as the lock's holder, if it names one. */
function lockHolder(detail: string): number | undefined {
  const pid = /\(PID (\d+)\)/.exec(detail)?.[1];
  return pid === undefined ? undefined : Number(pid);
}

function holderGone(detail: string): boolean {
  const pid = lockHolder(detail);
  if (pid === undefined) return true;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    // EPERM: the process exists and belongs to another user.
    return (error as NodeJS.ErrnoException).code === "ESRCH";
  }
}

function openError(file: string, detail: string, cause: unknown): ZooUsageError {
  if (LOCK_REFUSED.test(detail)) {
    const holder = lockHolder(detail);
    return new ZooUsageError({
      code: "warehouse.locked",
      message:
        holder === undefined
          ? `The database ${file} is in use by another process: ${detail}`
          : `The database ${file} is in use by another process (PID ${holder})`,
      hint: "Another export is running, or a tool (DuckDB CLI, a BI tool) holds the file open for writing. Wait for it or close it; the next run catches up.",
      exitCode: ExitCode.locked,
      cause,
    });
  }
  return new ZooUsageError({
    code: "warehouse.unreadable",
    message: `Cannot open ${file} as a DuckDB database: ${detail}`,
    hint: "Check that --db points to a zoo-usage DuckDB file (or a new path), and that it is readable and writable.",
    cause,
  });
}
