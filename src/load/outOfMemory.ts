import type { Warehouse } from "./database.js";

/**
 * Runs `attempt`, and when DuckDB fails it with an "Out of Memory Error", raises the warehouse's
 * memory limit (Warehouse.raiseMemoryLimit) and runs it again, until it succeeds or the limit is at
 * its ceiling. `attempt` must be safe to repeat: each caller undoes a failed try (a rolled-back
 * transaction, a removed temporary file). `onRaised` is told the new limit, for the run's warnings.
 */
export async function retryOnOutOfMemory<T>(
  warehouse: Warehouse,
  attempt: () => Promise<T>,
  onRaised: (limitMb: number) => void,
): Promise<T> {
  for (;;) {
    try {
      return await attempt();
    } catch (error) {
      if (!isOutOfMemory(error)) throw error;
      const limit = await warehouse.raiseMemoryLimit();
      if (limit === undefined) throw error;
      onRaised(limit);
    }
  }
}

function isOutOfMemory(error: unknown): boolean {
  return /^Out of Memory Error/.test(error instanceof Error ? error.message : "");
}
