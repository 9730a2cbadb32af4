import type { Dataset } from "./dataset.js";
import { derivedUuid } from "./identity.js";
import type { SortKey, SortMode } from "./keysetPage.js";
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
    const sorted = sortedOnce(ctx.dataset, `${path} ${user} ${list.order}`, () =>
      sortedListing(apiTokensOf(ctx.dataset, user), list.order),
    );
    return pageReply(sorted, list);
  }
  if (path === "/org/service-accounts") {
    const member = access.member(ctx, requestId, authorization);
    if ("status" in member) return member;
    const { orgId } = member;
    const sorted = sortedOnce(ctx.dataset, `${path} ${orgId} ${list.order}`, () =>
      sortedListing(serviceAccountsOf(ctx.dataset, orgId), list.order),
    );
    return pageReply(sorted, list);
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
  return pageReply(sortedListing(members, list.order), list);
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

/** A listing's items in its order, each with its key. */
type SortedListing = readonly { item: Listed; key: SortKey }[];

/**
 * Listings that never change (a user's API tokens, an org's service accounts), sorted once per
 * dataset: a user with 100,000 tokens is listed a page at a time, and making and sorting them all
 * for every page made the simulator, not the exporter, what a large account's run waited on.
 */
const sortedListings = new WeakMap<Dataset, Map<string, SortedListing>>();

function sortedOnce(dataset: Dataset, key: string, sort: () => SortedListing): SortedListing {
  let listings = sortedListings.get(dataset);
  if (listings === undefined) {
    listings = new Map();
    sortedListings.set(dataset, listings);
  }
  let sorted = listings.get(key);
  if (sorted === undefined) {
    sorted = sort();
    listings.set(key, sorted);
  }
  return sorted;
}

function sortedListing(items: readonly Listed[], order: SortMode): SortedListing {
  const sign = order === "created_at_ascending" ? 1 : -1;
  return items
    .map((item) => ({ item, key: { createdUs: microsFromDate(new Date(item.created_at)), id: item.id } }))
    .sort((a, b) => sign * compareKeys(a.key, b.key));
}

function compareKeys(a: SortKey, b: SortKey): number {
  if (a.createdUs !== b.createdUs) return a.createdUs - b.createdUs;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** A ResultsPage of a sorted listing after the query's key, with Dropshot's next_page rule. */
function pageReply(sorted: SortedListing, list: ListQuery): Reply {
  const sign = list.order === "created_at_ascending" ? 1 : -1;
  const { after } = list;
  // The first item that sorts strictly after `after`, by binary search.
  let low = 0;
  let high = sorted.length;
  while (after !== null && low < high) {
    const middle = (low + high) >>> 1;
    if (sign * compareKeys((sorted[middle] as { key: SortKey }).key, after) > 0) high = middle;
    else low = middle + 1;
  }
  const page = sorted.slice(low, low + list.limit).map(({ item }) => item);
  const last = page.at(-1);
  const next = last === undefined ? null : encodePageToken(list.order, last.created_at, last.id);
  return { status: 200, body: JSON.stringify({ next_page: next, items: page }) };
}
