import { randomBytes } from "node:crypto";
import { readdir, rm } from "node:fs/promises";
import path from "node:path";

/** Whether a process with this id exists: signal 0 checks without sending anything. */
export function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Removes the temporaries a killed process left in `dir`: files whose names match `pattern`, whose
 * first group is the process id of their writer, for processes that no longer exist. A process
 * that is still running may be writing its temporary this moment: its files stay.
 */
export async function removeOrphanedTemporaries(dir: string, pattern: RegExp): Promise<string[]> {
  const removed: string[] = [];
  for (const entry of await readdir(dir).catch(() => [] as string[])) {
    const pid = Number(pattern.exec(entry)?.[1]);
    if (!Number.isSafeInteger(pid) || pid <= 0 || pid === process.pid || processExists(pid)) continue;
    await rm(path.join(dir, entry), { force: true });
    removed.push(entry);
  }
  return removed;
}

/**
 * Where `file` is written before it takes its name: `.<name>.<pid>.<random>.tmp` beside it, a
 * dot-file (Parquet globs and readers pass it over) that names the process writing it.
 */
export function temporaryBeside(file: string): string {
  return path.join(
    path.dirname(file),
    `.${path.basename(file)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`,
  );
}

/** Removes what killed processes left of `file` written through temporaryBeside. */
export function removeOrphanedTemporariesOf(file: string): Promise<string[]> {
  const escaped = path.basename(file).replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return removeOrphanedTemporaries(
    path.dirname(file),
    new RegExp(`^\\.${escaped}\\.(\\d+)\\.[0-9a-f]+\\.tmp$`),
  );
}
