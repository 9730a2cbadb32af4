import type { MemberRecord, TokenRecord } from "../transform/spenderRows.js";
import type { Warehouse } from "./database.js";
import { sqlFile } from "./sqlFiles.js";

/** The tables of who holds the tokens, each upserted from one listing. */
export type SpenderTable = "api_tokens" | "service_accounts" | "org_members";

/**
 * Upserts a batch of listed rows into `table` in one statement (inside the caller's transaction):
 * inserted, or brought up to date with last_seen_at = `seenAt`. A row the API no longer lists keeps
 * its last values and its older last_seen_at.
 */
export async function upsertSpenders(
  warehouse: Warehouse,
  table: SpenderTable,
  rows: readonly (TokenRecord | MemberRecord)[],
  seenAt: Date,
): Promise<void> {
  await warehouse.connection.run(sqlFile(`statements/upsert_${table}.sql`), [
    JSON.stringify(rows),
    seenAt.toISOString(),
  ]);
}
