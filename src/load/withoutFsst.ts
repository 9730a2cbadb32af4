import type { Warehouse } from "./database.js";

/**
 * Runs `work` with DuckDB's FSST string compression off, for the calls' scan. Trying FSST on every
 * string segment was about a third of the CPU of each batch's commit, and the scan is CPU-bound;
 * for the calls' strings it saved a few per cent of the file (bench/HISTORY.md, "Figures behind the
 * code's settings"). The tables written after the scan (the operations' JSON above all) keep it.
 */
export async function withoutFsst<T>(warehouse: Warehouse, work: () => Promise<T>): Promise<T> {
  await warehouse.connection.run("SET disabled_compression_methods = 'fsst'");
  try {
    return await work();
  } finally {
    // A connection that cannot take this has failed the work already, which is what the run says.
    await warehouse.connection.run("RESET disabled_compression_methods").catch(() => undefined);
  }
}
