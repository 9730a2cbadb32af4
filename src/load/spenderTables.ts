import type { MemberRecord, RefusedItem, TokenRecord } from "../transform/spenderRows.js";
import type { Warehouse } from "./database.js";
import { insertRejects } from "./insertRejects.js";
import { inTransaction } from "./transaction.js";

/** One table's refresh: the rows the API listed now (undefined: not listed this run, left as is). */
export interface SpenderRows {
  apiTokens?: readonly TokenRecord[] | undefined;
  serviceAccounts?: readonly TokenRecord[] | undefined;
  members?: readonly MemberRecord[] | undefined;
  /** Items that did not validate, for the rejects table. */
  refused: readonly RefusedItem[];
  runId: string;
}

const TOKEN_COLUMNS = "label, token_last4, is_valid, created_at, updated_at";

/**
 * Upserts what the API listed into api_tokens, service_accounts and org_members, and the items
 * that did not validate into rejects, in one transaction: a listed row is inserted or brought up to date with last_seen_at = `seenAt`; a row
 * the API no longer lists keeps its last values and its older last_seen_at.
 */
export async function storeSpenders(warehouse: Warehouse, rows: SpenderRows, seenAt: Date): Promise<void> {
  const { connection } = warehouse;
  const seen = seenAt.toISOString();
  await inTransaction(connection, async () => {
    for (const [table, ownerColumn, list] of [
      ["api_tokens", "user_id", rows.apiTokens],
      ["service_accounts", "org_id", rows.serviceAccounts],
    ] as const) {
      for (const row of list ?? []) {
        await connection.run(
          `INSERT INTO ${table} (id, ${ownerColumn}, ${TOKEN_COLUMNS}, first_seen_at, last_seen_at)
           VALUES ($id::UUID, $owner::UUID, $label, $last4, $valid, $created::TIMESTAMPTZ, $updated::TIMESTAMPTZ, $seen::TIMESTAMPTZ, $seen::TIMESTAMPTZ)
           ON CONFLICT (id) DO UPDATE SET ${ownerColumn} = excluded.${ownerColumn}, label = excluded.label,
             token_last4 = excluded.token_last4, is_valid = excluded.is_valid, created_at = excluded.created_at,
             updated_at = excluded.updated_at, last_seen_at = excluded.last_seen_at`,
          {
            id: row.id,
            owner: row.owner_id,
            label: row.label,
            last4: row.token_last4,
            valid: row.is_valid,
            created: row.created_at,
            updated: row.updated_at,
            seen,
          },
        );
      }
    }
    for (const row of rows.members ?? []) {
      await connection.run(
        `INSERT INTO org_members (id, name, email, role, created_at, updated_at, first_seen_at, last_seen_at)
         VALUES ($id::UUID, $name, $email, $role, $created::TIMESTAMPTZ, $updated::TIMESTAMPTZ, $seen::TIMESTAMPTZ, $seen::TIMESTAMPTZ)
         ON CONFLICT (id) DO UPDATE SET name = excluded.name, email = excluded.email, role = excluded.role,
           created_at = excluded.created_at, updated_at = excluded.updated_at, last_seen_at = excluded.last_seen_at`,
        {
          id: row.id,
          name: row.name,
          email: row.email,
          role: row.role,
          created: row.created_at,
          updated: row.updated_at,
          seen,
        },
      );
    }
    await insertRejects(
      connection,
      rows.refused.map((item) => ({ ...item, run_id: rows.runId, rejected_at: seen })),
    );
  });
}
