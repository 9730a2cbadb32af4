/**
 * What happens to personal or credential fields on their way into the warehouse.
 * - keep: stored as received; hash: keyed HMAC-SHA256 (groupable, not readable); drop: NULL.
 * `token` identifies a credential and defaults to hash; email and ip_address default to keep.
 */
export type FieldPolicy = "keep" | "hash" | "drop";
export const FIELD_POLICIES: readonly FieldPolicy[] = ["keep", "hash", "drop"];

export interface PrivacyPolicy {
  token: FieldPolicy;
  email: FieldPolicy;
  ipAddress: FieldPolicy;
}

export const DEFAULT_PRIVACY: PrivacyPolicy = { token: "hash", email: "keep", ipAddress: "keep" };

/** The fields a PrivacyPolicy governs: their name in an api call, and their key in the policy. */
export const POLICY_FIELDS = [
  { field: "token", policy: "token" },
  { field: "email", policy: "email" },
  { field: "ip_address", policy: "ipAddress" },
] as const satisfies readonly { field: string; policy: keyof PrivacyPolicy }[];

export type PolicyField = (typeof POLICY_FIELDS)[number]["field"];

export function applyPolicy(
  value: string | null | undefined,
  policy: FieldPolicy,
  hash: (value: string) => string,
): string | null {
  if (value === null || value === undefined || policy === "drop") return null;
  return policy === "hash" ? hash(value) : value;
}
