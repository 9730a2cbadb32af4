import { rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { asStorageError } from "./storageError.js";

/**
 * NDJSON spool files: the fastest measured way into DuckDB (read_json with explicit column types,
 * duckdb-notes.md). Files live in the run's private spool folder and are removed after each load.
 */
export class Spool {
  private sequence = 0;
  private readonly files: string[] = [];

  constructor(
    private readonly dir: string,
    private readonly runId: string,
  ) {}

  async write(kind: string, lines: readonly string[]): Promise<string> {
    this.sequence += 1;
    const file = path.join(this.dir, `${this.runId}-${this.sequence}-${kind}.ndjson`);
    this.files.push(file);
    try {
      await writeFile(file, `${lines.join("\n")}\n`, { mode: 0o600 });
    } catch (error) {
      throw asStorageError(error, `the spool file ${file}`);
    }
    return file;
  }

  /** Removes the files written since the last cleanup. */
  async cleanup(): Promise<void> {
    const files = this.files.splice(0);
    await Promise.all(files.map((file) => rm(file, { force: true })));
  }
}
