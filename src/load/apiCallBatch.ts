import { type ApiCallRow, isEarlier } from "../transform/apiCallRow.js";
import type { DerivedValues } from "../transform/derivedValues.js";
import type { Rung } from "./checkpoint.js";
import type { ItemsSpool, RowSpool } from "./spool.js";

/** Everything one transaction commits: rows, rejects and the checkpoint that covers them. */
export interface Batch {
  /** Records of the pages that go through the row path, transformed and serialised. */
  rows: RowSpool;
  /** Records of the pages DuckDB reads raw (isBulkLoadable), with the values it joins in. */
  items: ItemsSpool;
  derived: DerivedValues;
  rejects: string[];
  rungs: Rung[];
  /** Where to resume if the run stops after this batch (sealed), or null when the scan ended. */
  resumeToken: string | null;
  /** The batch's oldest and newest created_at, as sent (UTC or with an offset). */
  minCreatedAt: string | null;
  maxCreatedAt: string | null;
  /** Set on the first batch ever: the user whose history this database holds from now on. */
  userId: string | null;
}

export interface BatchResult {
  inserted: number;
  updated: number;
  rejected: number;
  /** Of `rejected`, the records DuckDB refused at load time (not the validator's rejects). */
  refusedByDuckDb: number;
}

export function serializeRow(row: ApiCallRow): string {
  return JSON.stringify(row);
}

/**
 * Notes one accepted record's created_at (an RFC 3339 time, at most 6 fraction digits) in its batch.
 * Compared as instants (isEarlier): as text, "...:00Z" sorts after "...:00.5Z", and offsets do not
 * sort at all.
 */
export function noteRecord(batch: Batch, createdAt: string): void {
  if (batch.minCreatedAt === null || isEarlier(createdAt, batch.minCreatedAt)) batch.minCreatedAt = createdAt;
  if (batch.maxCreatedAt === null || isEarlier(batch.maxCreatedAt, createdAt)) batch.maxCreatedAt = createdAt;
}
