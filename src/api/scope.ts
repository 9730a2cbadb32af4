/**
 * Whose data an export reads: the token's own user (`/user/...`) or the whole organisation the
 * token's user administers (`/org/...`). The two families of endpoints have the same schemas and
 * pagination, so a scope is only the first segment of each path.
 */
export type ApiScope = "user" | "org";

export const API_SCOPES: readonly ApiScope[] = ["user", "org"];

/** `/user/api-calls` or `/org/api-calls` for `scopedPath(scope, "api-calls")`. */
export function scopedPath(scope: ApiScope, rest: string): string {
  return `/${scope}/${rest.replace(/^\/+/, "")}`;
}
