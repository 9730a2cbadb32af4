import { ByteWriter } from "./byteWriter.js";
import { DIRECTORY_PATHS, directoryRoute } from "./directoryRoutes.js";
import { orgPageEntries } from "./orgCalls.js";
import { errorReply, type Reply } from "./responses.js";
import { authenticate, callsPageReply, parseListQuery, type RouteContext, uuidParameter } from "./routes.js";
import { formatMicros, microsFromDate } from "./time.js";

const ORG_CALL_PATH = /^\/org\/api-calls\/([^/]+)$/;

/** The caller's org, when the caller is its admin. */
export interface OrgAdmin {
  user: number;
  orgId: string;
  /** The org's users, ascending. */
  members: number[];
}

/** The spec's path template of an org route, or undefined for any other path. */
export function orgRouteOf(path: string): string | undefined {
  if (path === "/org" || path === "/org/api-calls") return path;
  if (ORG_CALL_PATH.test(path)) return "/org/api-calls/{id}";
  return (DIRECTORY_PATHS as readonly string[]).includes(path) ? path : undefined;
}

/**
 * The org routes (GET only, as every route here), or undefined for a path that is not one of them.
 * The checks run in the order the other routes use: the query, then the token, then the role.
 */
export function orgRoute(
  ctx: RouteContext,
  path: string,
  query: URLSearchParams,
  requestId: string,
  authorization: string | undefined,
): Reply | undefined {
  if (orgRouteOf(path) === undefined) return undefined;
  const directory = directoryRoute(ctx, path, query, requestId, authorization, {
    member: orgMemberOf,
    admin: orgAdminOf,
  });
  if (directory !== undefined) return directory;
  if (path === "/org/api-calls") {
    const list = parseListQuery(requestId, query);
    if ("status" in list) return list;
    const admin = orgAdminOf(ctx, requestId, authorization);
    if ("status" in admin) return admin;
    const nowUs = microsFromDate(ctx.now());
    const entries = orgPageEntries(ctx.dataset, ctx.recorded, admin.members, { nowUs, ...list });
    return callsPageReply(ctx, nowUs, entries, list.order);
  }
  const rawId = ORG_CALL_PATH.exec(path)?.[1];
  if (rawId !== undefined) {
    const id = uuidParameter(requestId, rawId);
    if (typeof id !== "string") return id;
    const admin = orgAdminOf(ctx, requestId, authorization);
    if ("status" in admin) return admin;
    return orgCall(ctx, requestId, id, admin);
  }
  const admin = orgAdminOf(ctx, requestId, authorization);
  if ("status" in admin) return admin;
  return { status: 200, body: JSON.stringify(orgBody(ctx, admin)) };
}

/**
 * The caller as its org's admin, or the API's refusal. A user in no org gets a 404 (there is no
 * org to show: the resource does not exist for this caller); a member who is not an admin gets a
 * 403 (the org exists and the caller is in it, but the spec says these endpoints "require
 * authentication by an org admin"). Zoo's answers here are not documented; this is Dropshot's usual
 * split between a missing resource and a forbidden one.
 */
export function orgAdminOf(
  ctx: RouteContext,
  requestId: string,
  authorization: string | undefined,
): OrgAdmin | Reply {
  const member = orgMemberOf(ctx, requestId, authorization);
  if ("status" in member) return member;
  const profile = ctx.dataset.profileOf(member.user);
  if (profile?.orgRole !== "admin") {
    return errorReply(requestId, 403, "forbidden: this endpoint requires an org admin");
  }
  return member;
}

/** The caller as a member of its org (any role), or the API's refusal (see orgAdminOf). */
export function orgMemberOf(
  ctx: RouteContext,
  requestId: string,
  authorization: string | undefined,
): OrgAdmin | Reply {
  const user = authenticate(ctx, requestId, authorization);
  if (typeof user !== "number") return user;
  const orgId = ctx.dataset.profileOf(user)?.orgId ?? null;
  if (orgId === null) return errorReply(requestId, 404, "not found: the user is not a member of an org");
  return { user, orgId, members: ctx.dataset.orgMembers(orgId) };
}

/**
 * GET /org/api-calls/{id} (operationId get_api_call_for_org): one call of a member, as the org's
 * listing shows it now; a call of someone outside the org, or not listed yet, is a 404.
 */
function orgCall(ctx: RouteContext, requestId: string, id: string, admin: OrgAdmin): Reply {
  const { dataset } = ctx;
  const nowUs = microsFromDate(ctx.now());
  const found = dataset.findCallIndex(id);
  const owner = found === undefined ? undefined : dataset.userIndexOf(found);
  const index =
    owner === undefined || !admin.members.includes(owner)
      ? undefined
      : dataset.visibleCallIndexForUser(id, owner, nowUs);
  if (index === undefined) return errorReply(requestId, 404, `not found: no API call with id ${id}`);
  const body = new ByteWriter(2048);
  dataset.writeCall(body, dataset.rawCallAt(index, nowUs), ctx.priceAsString);
  return { status: 200, body: body.bytes() };
}

/** GET /org (operationId get_org): the spec's Org, its required fields and a name. */
function orgBody(ctx: RouteContext, admin: OrgAdmin): Record<string, unknown> {
  const adminEmail = ctx.dataset.profileOf(admin.user)?.email ?? "";
  // The org exists from the start of the simulated history: a year before the initial clock.
  const createdAt = formatMicros(microsFromDate(ctx.dataset.initialNow) - 365 * 86_400_000_000);
  return {
    id: admin.orgId,
    name: `Org ${admin.orgId.slice(0, 8)}`,
    billing_email: `billing@${adminEmail.split("@")[1] ?? "example.com"}`,
    billing_email_verified: null,
    block: null,
    can_train_on_data: false,
    domain: null,
    created_at: createdAt,
    updated_at: createdAt,
  };
}
