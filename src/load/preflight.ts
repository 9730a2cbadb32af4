import { constants } from "node:fs";
import { access, mkdir, rm, rmdir, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { ZooUsageError } from "../errors.js";
import { removeOrphanedTemporaries } from "./orphanedTemporaries.js";

/** The probe file of a process, which a process killed between write and remove leaves behind. */
export const WRITE_PROBE = /^\.zoo-usage-write-check-(\d+)$/;

/** A directory a run writes into, and the flag that names it in messages. */
export interface RunDirectory {
  dir: string;
  flag: string;
}

/**
 * Checks that a directory can be written, or created, before a run changes anything, so that an
 * unwritable --out fails at once with the database untouched, not after the database moved on.
 * It creates nothing: an existing directory gets a probe file, written and removed; a missing one
 * needs its nearest existing ancestor to be a directory this process may write into. A refused run
 * leaves no directory behind (createRunDirectories makes them once every check passed).
 */
export async function assertWritableDirectory(dir: string, flag: string): Promise<void> {
  try {
    const resolved = path.resolve(dir);
    const { existing, missing } = await nearestExisting(resolved);
    if (missing.length === 0) {
      const probe = path.join(resolved, `.zoo-usage-write-check-${process.pid}`);
      await writeFile(probe, "");
      await rm(probe, { force: true });
      await removeOrphanedTemporaries(resolved, WRITE_PROBE);
      return;
    }
    if (!(await stat(existing)).isDirectory()) {
      throw Object.assign(new Error(`${existing} is not a directory`), { code: "ENOTDIR" });
    }
    await access(existing, constants.W_OK | constants.X_OK);
  } catch (cause) {
    throw unwritable({ dir, flag }, cause);
  }
}

/**
 * Creates the missing levels of each directory, once the run will proceed. When one cannot be
 * made (a path the checks could not foresee, under /proc for one), the levels made before it are
 * removed again, so that the refusal leaves nothing behind.
 */
export async function createRunDirectories(directories: readonly RunDirectory[]): Promise<void> {
  const made: string[] = [];
  for (const directory of directories) {
    try {
      const { missing } = await nearestExisting(path.resolve(directory.dir));
      // mkdir -p, one level at a time: Node's recursive mkdir spins forever on some paths (under
      // /proc, for one); creating each missing level ourselves fails fast with the real error.
      for (const level of missing) {
        await mkdir(level);
        made.push(level);
      }
    } catch (cause) {
      for (const level of made.reverse()) await rmdir(level).catch(() => undefined);
      throw unwritable(directory, cause);
    }
  }
}

/** The nearest existing ancestor of `dir` (itself when it exists) and the levels below it, top first. */
async function nearestExisting(dir: string): Promise<{ existing: string; missing: string[] }> {
  const missing: string[] = [];
  let current = dir;
  for (;;) {
    const exists = await stat(current).then(
      () => true,
      (error: NodeJS.ErrnoException) => {
        // Only a missing level is one to create; anything else (a file in the way, no permission)
        // is the real error.
        if (error.code === "ENOENT") return false;
        throw error;
      },
    );
    if (exists) return { existing: current, missing };
    missing.unshift(current);
    const parent = path.dirname(current);
    if (parent === current) return { existing: current, missing };
    current = parent;
  }
}

function unwritable({ dir, flag }: RunDirectory, cause: unknown): ZooUsageError {
  return new ZooUsageError({
    code: "output.unwritable",
    message: `Cannot write to ${dir} (${flag}): ${(cause as Error).message}`,
    hint: `Make it writable, or choose another ${flag}. Nothing was changed.`,
    cause,
  });
}
