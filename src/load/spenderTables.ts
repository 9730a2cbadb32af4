import type { Warehouse } from "./database.js";
import { inTransaction } from "./transaction.js";

/** A token as stored: never the secret, only the last 4 characters the API shows. */
export interface TokenRow {
  id: string;
  /** The user (api_tokens) or the org (service_accounts) the token belongs to. */
  owner_id: string;
  label: string | null;
  token_last4: string | null;
  is_valid: boolean;
  created_at: string;
  updated_at: string;
}

export interface MemberRow {
  id: string;
  name: string | null;
  /** As the --email-column policy leaves it (kept, hashed or null). */
  email: string | null;
  role: string;
  created_at: string;
  updated_at: string;
}

/** One table's refresh: the rows the API listed now (undefined: not listed this run, left as is). */
export interface SpenderRows {
  apiTokens?: readonly TokenRow[] | undefined;
  serviceAccounts?: readonly TokenRow[] | undefined;
  members?: readonly MemberRow[] | undefined;
  /** Items that did not validate, for the rejects table. */
  refused: readonly { record_id: string | null; reason: string; raw_json: string }[];
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
    for (const item of rows.refused) {
      await connection.run(
        `INSERT INTO rejects (run_id, rejected_at, record_id, reason, raw_json)
         VALUES ($run, $seen::TIMESTAMPTZ, $id, $reason, $raw)`,
        { run: rows.runId, seen, id: item.record_id, reason: item.reason, raw: item.raw_json },
      );
    }
  });
}
