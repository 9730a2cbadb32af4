import type { Warehouse } from "./database.js";
import { TABLE_ROW_GROUP_ROWS } from "./database.js";
import { firstLine } from "./refusedRows.js";

/**
 * Writes what a commit left in DuckDB's WAL into the file. Rows inserted a full row group at a time
 * go straight into the file; fewer rows, and every update or upsert, go through the WAL and stay in
 * memory, uncompressed, until a checkpoint, which DuckDB takes only every 64 MB of WAL: over a run of
 * small commits that memory grows with every one. A failed checkpoint loses nothing (DuckDB keeps
 * the WAL and checkpoints later), so it is one warning per run, not an error.
 */
export class WalCheckpoint {
  private failed = false;

  constructor(
    private readonly warehouse: Warehouse,
    private readonly onWarning: (message: string) => void,
  ) {}

  /** After a commit that inserted `inserted` rows and updated (or upserted) `updated`. */
  async afterCommit(inserted: number, updated: number): Promise<void> {
    const shortInsert = inserted > 0 && inserted < TABLE_ROW_GROUP_ROWS;
    if (!shortInsert && updated === 0) return;
    try {
      await this.warehouse.connection.run("CHECKPOINT");
    } catch (error) {
      if (this.failed) return;
      this.failed = true;
      this.onWarning(
        `could not write a batch from DuckDB's WAL into ${this.warehouse.path} (${firstLine(error)}); DuckDB keeps it in the WAL and in memory until a later checkpoint`,
      );
    }
  }
}
