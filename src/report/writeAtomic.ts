import { rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { ZooUsageError } from "../errors.js";
import { removeOrphanedTemporariesOf, temporaryBeside } from "../load/orphanedTemporaries.js";

/**
 * Writes a file beside its final name as a dot-file, then renames it over the target: a reader
 * (a browser, a mail attachment, a web server) sees the old file or the new one, never half of it.
 */
export async function writeFileAtomic(target: string, contents: string): Promise<string> {
  const resolved = path.resolve(target);
  const temp = temporaryBeside(resolved);
  try {
    // What a killed run left beside the target: `.<name>.<pid>.<random>.tmp` of a process now gone.
    await removeOrphanedTemporariesOf(resolved);
    await writeFile(temp, contents, { encoding: "utf8", flag: "wx" });
    await rename(temp, resolved);
  } catch (cause) {
    await rm(temp, { force: true });
    throw new ZooUsageError({
      code: "output.unwritable",
      message: `Cannot write ${resolved}: ${(cause as Error).message}`,
      hint: "Choose a writable file with --html (its directory must exist).",
      cause,
    });
  }
  return resolved;
}
