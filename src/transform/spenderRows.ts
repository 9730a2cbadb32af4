import { z } from "zod";
import { ApiTokenSchema, OrgMemberSchema, ServiceAccountSchema } from "../api/schemas/index.js";
import type { SecretBox } from "../secrets/secretBox.js";
import { applyPolicy, type FieldPolicy } from "./privacy.js";
import { oversizeProblem, rawJsonForReject, rowBytes } from "./recordJson.js";

/** A token or service account as stored: the last 4 characters the API shows, never more. */
export interface TokenRecord {
  id: string;
  /** The user (api_tokens) or the org (service_accounts) the token belongs to. */
  owner_id: string;
  label: string | null;
  token_last4: string | null;
  is_valid: boolean;
  created_at: string;
  updated_at: string;
}

export interface MemberRecord {
  id: string;
  name: string | null;
  /** As the --email-column policy leaves it (kept, hashed or null). */
  email: string | null;
  role: string;
  created_at: string;
  updated_at: string;
}

/** An item that does not validate: what the rejects table keeps of it. */
export interface RefusedItem {
  record_id: string | null;
  reason: string;
  raw_json: string;
}

/**
 * The valid items of a listing as rows, and the others with the reason they were refused: an item
 * that does not validate (a lone surrogate in a text is refused by the schema) or whose row would
 * hold more than MAX_RECORD_BYTES.
 */
export interface CheckedItems<T> {
  rows: T[];
  refused: RefusedItem[];
}

/**
 * The API's token of a listing item, as stored: its last 4 characters. The API obfuscates the rest
 * (ApiToken.token: "only the last 4 characters are shown"), so those 4 are all it gives.
 */
function lastFour(token: string): string | null {
  const chars = Array.from(token);
  return chars.length < 4 ? null : chars.slice(-4).join("");
}

/** GET /user/api-tokens or /org/service-accounts items as token rows. */
export function tokenRows(
  items: readonly unknown[],
  kind: "api_token" | "service_account",
): CheckedItems<TokenRecord> {
  const schema = kind === "api_token" ? ApiTokenSchema : ServiceAccountSchema;
  const rows: TokenRecord[] = [];
  const refused: RefusedItem[] = [];
  for (const item of items) {
    const parsed = schema.safeParse(item);
    if (!parsed.success) {
      refused.push(refusal(item, `${kind}: ${z.prettifyError(parsed.error)}`, undefined));
      continue;
    }
    const token = parsed.data;
    const row: TokenRecord = {
      id: token.id.toLowerCase(),
      owner_id: String("user_id" in token ? token.user_id : token.org_id).toLowerCase(),
      label: token.label ?? null,
      token_last4: lastFour(token.token),
      is_valid: token.is_valid,
      created_at: token.created_at,
      updated_at: token.updated_at,
    };
    const oversize = oversizeProblem(rowBytes([Object.values(row)]));
    if (oversize === undefined) rows.push(row);
    else refused.push(refusal(item, `${kind}: ${oversize}`, undefined));
  }
  return { rows, refused };
}

/** GET /org/members items as member rows, the email as the --email-column policy says. */
export function memberRows(
  items: readonly unknown[],
  emailPolicy: FieldPolicy,
  secrets: SecretBox,
): CheckedItems<MemberRecord> {
  const hash = (value: string) => secrets.hash(value);
  const rows: MemberRecord[] = [];
  const refused: RefusedItem[] = [];
  for (const item of items) {
    const parsed = OrgMemberSchema.safeParse(item);
    if (!parsed.success) {
      refused.push(refusal(item, `org_member: ${z.prettifyError(parsed.error)}`, { emailPolicy, hash }));
      continue;
    }
    const member = parsed.data;
    const joined = [member.first_name, member.last_name]
      .filter((part) => part !== undefined && part !== "")
      .join(" ");
    const row: MemberRecord = {
      id: member.id.toLowerCase(),
      name: member.name !== undefined && member.name !== "" ? member.name : joined === "" ? null : joined,
      email: applyPolicy(member.email, emailPolicy, hash),
      role: member.role,
      created_at: member.created_at,
      updated_at: member.updated_at,
    };
    const oversize = oversizeProblem(rowBytes([Object.values(row)]));
    if (oversize === undefined) rows.push(row);
    else refused.push(refusal(item, `org_member: ${oversize}`, { emailPolicy, hash }));
  }
  return { rows, refused };
}

function refusal(
  item: unknown,
  reason: string,
  email: { emailPolicy: FieldPolicy; hash: (value: string) => string } | undefined,
): RefusedItem {
  const record =
    item !== null && typeof item === "object" && !Array.isArray(item)
      ? (item as Record<string, unknown>)
      : undefined;
  const copy = record === undefined ? item : { ...record };
  if (email !== undefined && record !== undefined && typeof record.email === "string") {
    (copy as Record<string, unknown>).email = applyPolicy(record.email, email.emailPolicy, email.hash);
  }
  return {
    record_id: typeof record?.id === "string" ? record.id : null,
    reason,
    raw_json: rawJsonForReject(copy),
  };
}
