import type { Warehouse } from "./database.js";
import { retryOnOutOfMemory } from "./outOfMemory.js";
import { findUnreadable, firstLine } from "./refusedRows.js";
import { inTransaction } from "./transaction.js";

/** DuckDB's errors about a value it cannot take (not about storage, memory or the SQL itself). */
const DATA_ERROR = /^(Invalid Input|Conversion|Constraint|Out of Range) Error/;

export function isDataError(error: unknown): boolean {
  return DATA_ERROR.test(error instanceof Error ? error.message : "");
}

/** What storing a batch did: the rows' own counts, and the items DuckDB refused with its reason. */
export interface StoredBatch<Item, Counts> {
  counts: Counts[];
  refused: { item: Item; reason: string }[];
}

/**
 * Writes `items` in one transaction with `write`; when DuckDB refuses some items' data, finds them
 * by halving (each half in a transaction of its own) and stores the rest, returning the refused
 * ones with DuckDB's reason. An Out of Memory error raises DuckDB's limit and tries again. Any other
 * failure (the disk, a lock) is thrown: it is not about the records.
 */
export async function storeOrRefuse<Item, Counts>(
  warehouse: Warehouse,
  items: readonly Item[],
  write: (items: readonly Item[]) => Promise<Counts>,
  onMemoryRaised: (limitMb: number) => void,
): Promise<StoredBatch<Item, Counts>> {
  const counts: Counts[] = [];
  const attempt = async (part: readonly Item[]): Promise<string | undefined> => {
    try {
      const done = await retryOnOutOfMemory(
        warehouse,
        () => inTransaction(warehouse.connection, () => write(part)),
        onMemoryRaised,
      );
      counts.push(done);
      return undefined;
    } catch (error) {
      if (!isDataError(error)) throw error;
      return firstLine(error);
    }
  };
  if (items.length === 0 || (await attempt(items)) === undefined) return { counts, refused: [] };
  // Halving: each part accepted is written then, and not again.
  const middle = Math.ceil(items.length / 2);
  const refused = [
    ...(await findUnreadable(items.slice(0, middle), attempt)),
    ...(await findUnreadable(items.slice(middle), attempt)),
  ];
  return { counts, refused: refused.map(({ line, reason }) => ({ item: line, reason })) };
}
