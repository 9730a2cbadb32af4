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
