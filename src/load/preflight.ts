import { mkdir, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { ZooUsageError } from "../errors.js";
import { removeOrphanedTemporaries } from "./orphanedTemporaries.js";

/** The probe file of a process, which a process killed between write and remove leaves behind. */
const PROBE = /^\.zoo-usage-write-check-(\d+)$/;

/**
 * Checks that a directory can be created and written before a run changes anything, so that an
 * unwritable --out fails at once with the database untouched, not after the database moved on.
 */
export async function assertWritableDirectory(dir: string, flag: string): Promise<void> {
  const probe = path.join(dir, `.zoo-usage-write-check-${process.pid}`);
  try {
    await makeDirectories(path.resolve(dir));
    await writeFile(probe, "");
    await rm(probe, { force: true });
    await removeOrphanedTemporaries(dir, PROBE);
  } catch (cause) {
    throw new ZooUsageError({
      code: "output.unwritable",
      message: `Cannot write to ${dir} (${flag}): ${(cause as Error).message}`,
      hint: `Make it writable, or choose another ${flag}. Nothing was changed.`,
      cause,
    });
  }
}

/**
 * mkdir -p, one level at a time. Node's recursive mkdir spins forever on some paths (under /proc,
 * for one); creating each missing level ourselves fails fast with the real error instead.
 */
async function makeDirectories(dir: string): Promise<void> {
  const missing: string[] = [];
  let current = dir;
  for (;;) {
    const exists = await stat(current).then(
      (stats) => stats,
      () => undefined,
    );
    if (exists !== undefined) break;
    missing.unshift(current);
    const parent = path.dirname(current);
    if (parent === current) break;
    current = parent;
  }
  for (const level of missing) await mkdir(level);
}
