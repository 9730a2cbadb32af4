import type { Dataset } from "./dataset.js";
import { derivedUuid } from "./identity.js";
import type { SortKey } from "./keysetPage.js";
import { encodePageToken } from "./pageToken.js";
import { errorReply, type Reply } from "./responses.js";
import { authenticate, type ListQuery, parseListQuery, type RouteContext } from "./routes.js";
import { SALT } from "./salts.js";
import { formatMicros, microsFromDate } from "./time.js";
import { serviceAccountTokens } from "./users.js";

/**
 * Who holds the tokens the calls are made with: GET /user/api-tokens (the caller's own tokens),
 * GET /org/service-accounts (the org's, for any member) and GET /org/members (admins only). Each is
 * a ResultsPage paged by (created_at, id) like the api-calls listing. A token shows only its last 4
 * characters, as the spec says the API obfuscates it.
 */

const DAY_US = 86_400_000_000;
const TOKEN_LABELS = ["laptop", "ci", null] as const;
const SERVICE_ACCOUNT_LABELS = ["render-farm", "nightly-batch"] as const;

/** The spec's OrgRole values. */
const ORG_ROLES = ["admin", "member", "service_account"] as const;

/** The paths served here, by their spec template. */
export const DIRECTORY_PATHS = ["/user/api-tokens", "/org/service-accounts", "/org/members"] as const;

interface Listed {
  created_at: string;
  id: string;
}

/** The org routes' role checks, handed in by orgRoutes (which owns them). */
export interface DirectoryAccess {
  member(
    ctx: RouteContext,
    requestId: string,
    authorization: string | undefined,
  ): { orgId: string; members: number[] } | Reply;
  admin(
    ctx: RouteContext,
    requestId: string,
    authorization: string | undefined,
  ): { orgId: string; members: number[] } | Reply;
}

export function directoryRoute(
  ctx: RouteContext,
  path: string,
  query: URLSearchParams,
  requestId: string,
  authorization: string | undefined,
  access: DirectoryAccess,
): Reply | undefined {
  if (!(DIRECTORY_PATHS as readonly string[]).includes(path)) return undefined;
  const list = parseListQuery(requestId, query);
  if ("status" in list) return list;
  if (path === "/user/api-tokens") {
    const user = authenticate(ctx, requestId, authorization);
    if (typeof user !== "number") return user;
    return pageReply(apiTokensOf(ctx.dataset, user), list);
  }
  if (path === "/org/service-accounts") {
    const member = access.member(ctx, requestId, authorization);
    if ("status" in member) return member;
    return pageReply(serviceAccountsOf(ctx.dataset, member.orgId), list);
  }
  const admin = access.admin(ctx, requestId, authorization);
  if ("status" in admin) return admin;
  const role = query.getAll("role").at(-1);
  if (role !== undefined && !(ORG_ROLES as readonly string[]).includes(role)) {
    return errorReply(
      requestId,
      400,
      `unable to parse query string: unknown variant \`${role}\`, expected one of \`admin\`, \`member\`, \`service_account\``,
    );
  }
  const members = membersOf(ctx.dataset, admin.members).filter((m) => role === undefined || m.role === role);
  return pageReply(members, list);
}

/** The org's and its tokens' creation times: the org a year before the initial clock. */
function orgStartUs(dataset: Dataset): number {
  return microsFromDate(dataset.initialNow) - 365 * DAY_US;
}

/** ApiToken of user `u`, each token shown as its last 4 characters behind asterisks. */
export function apiTokensOf(dataset: Dataset, u: number): (Listed & Record<string, unknown>)[] {
  const profile = dataset.profileOf(u);
  if (profile === undefined) return [];
  return profile.apiTokens.map((token, k) => {
    const at = formatMicros(orgStartUs(dataset) + (u * 10 + k) * DAY_US);
    return {
      id: derivedUuid(dataset.seed, u * 8 + k, SALT.apiTokenId),
      user_id: profile.id,
      label: TOKEN_LABELS[k % TOKEN_LABELS.length] ?? null,
      token: obfuscated("api-", token),
      is_valid: true,
      created_at: at,
      updated_at: at,
    };
  });
}

/** ServiceAccount of the org: tokens of the org, used by its members' calls. */
export function serviceAccountsOf(dataset: Dataset, orgId: string): (Listed & Record<string, unknown>)[] {
  return serviceAccountTokens(dataset.seed).map((token, k) => {
    const at = formatMicros(orgStartUs(dataset) + (5 + k) * DAY_US);
    return {
      id: derivedUuid(dataset.seed, k, SALT.serviceAccountId),
      org_id: orgId,
      label: SERVICE_ACCOUNT_LABELS[k] ?? null,
      token: obfuscated("svc-", token),
      is_valid: true,
      created_at: at,
      updated_at: at,
    };
  });
}

/**
 * OrgMember of each member: the spec's required fields, names and email; then the org's service
 * accounts, which are members with the role `service_account` (OrgRole).
 */
export function membersOf(
  dataset: Dataset,
  members: readonly number[],
): (Listed & Record<string, unknown>)[] {
  const orgStart = orgStartUs(dataset);
  const serviceMembers = serviceAccountTokens(dataset.seed).map((_, k) => {
    const at = formatMicros(orgStart + (5 + k) * DAY_US);
    const label = SERVICE_ACCOUNT_LABELS[k] ?? "service";
    return {
      id: derivedUuid(dataset.seed, 100 + k, SALT.serviceAccountId),
      email: `${label}@service-accounts.example.com`,
      name: label,
      role: "service_account",
      image: `https://example.com/avatars/${label}.png`,
      created_at: at,
      updated_at: at,
    };
  });
  const people = members.flatMap((u) => {
    const profile = dataset.profileOf(u);
    if (profile === undefined) return [];
    const at = formatMicros(orgStartUs(dataset) + u * DAY_US);
    const first = profile.firstName.charAt(0).toUpperCase() + profile.firstName.slice(1);
    return [
      {
        id: profile.id,
        email: profile.email,
        first_name: first,
        last_name: `User${u}`,
        name: `${first} User${u}`,
        role: profile.orgRole ?? "member",
        image: `https://example.com/avatars/${profile.id}.png`,
        created_at: at,
        updated_at: at,
      },
    ];
  });
  return members.length === 0 ? people : [...people, ...serviceMembers];
}

/**
 * A token as the API shows it: its last 4 characters, the rest masked, after the prefix of its
 * type (ApiTokenUuid "api-", ServiceAccountUuid "svc-"). The calls name the same token by its
 * bare UUID (ApiCallWithPrice.token is a Uuid), so the last 4 characters still match.
 */
function obfuscated(prefix: string, token: string): string {
  return `${prefix}${"*".repeat(Math.max(0, token.length - 4))}${token.slice(-4)}`;
}

/** A ResultsPage of `items` (sorted here) after the query's key, with Dropshot's next_page rule. */
function pageReply(items: Listed[], list: ListQuery): Reply {
  const keyOf = (item: Listed): SortKey => ({
    createdUs: microsFromDate(new Date(item.created_at)),
    id: item.id,
  });
  const sign = list.order === "created_at_ascending" ? 1 : -1;
  const compare = (a: SortKey, b: SortKey) =>
    a.createdUs !== b.createdUs ? a.createdUs - b.createdUs : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
  const { after } = list;
  const sorted = [...items].sort((a, b) => sign * compare(keyOf(a), keyOf(b)));
  const page = sorted
    .filter((item) => after === null || sign * compare(keyOf(item), after) > 0)
    .slice(0, list.limit);
  const last = page.at(-1);
  const next = last === undefined ? null : encodePageToken(list.order, last.created_at, last.id);
  return { status: 200, body: JSON.stringify({ next_page: next, items: page }) };
}
