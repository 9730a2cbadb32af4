import { stat } from "node:fs/promises";
import path from "node:path";
import { ZooUsageError } from "../errors.js";

/**
 * The absolute path of a database a reader (report, check) opens read-only. Read-only DuckDB
 * cannot open a missing file and says so cryptically: this says it plainly first.
 */
export async function existingDatabase(configured: string): Promise<string> {
  const dbPath = path.resolve(configured);
  const file = await stat(dbPath).catch(() => null);
  if (file === null || !file.isFile()) {
    throw new ZooUsageError({
      code: "config.invalid",
      message: `No zoo-usage database at ${dbPath}`,
      // Commands that work from a clone and from an install alike (`npm start` needs a clone).
      hint: "Run `zoo-usage export` first, or `zoo-usage demo` and pass --db zoo-usage-demo/zoo_usage.duckdb, or point --db or $ZOO_USAGE_DB at the database.",
    });
  }
  return dbPath;
}
