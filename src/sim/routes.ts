import { ByteWriter } from "./byteWriter.js";
import type { Dataset } from "./dataset.js";
import { operationJsonWithOutputBytes } from "./fakeFiles.js";
import type { SortKey, SortMode } from "./keysetPage.js";
import { decodePageToken, encodePageToken } from "./pageToken.js";
import { UUID_PATTERN } from "./random.js";
import { mergePage, type PageEntry, type RecordedCalls } from "./recordedCalls.js";
import { errorReply, type Reply } from "./responses.js";
import { formatMicros, microsFromDate } from "./time.js";

/** What the API routes need from the running simulator. */
export interface RouteContext {
  dataset: Dataset;
  now(): Date;
  priceAsString: boolean;
  /** The calls of the simulator's own served requests, merged into listings (recordOwnTraffic). */
  recorded?: RecordedCalls | undefined;
  /** Grows each operation's first output file to this many bytes (SimulatorOptions.outputBytes). */
  outputBytes?: number | undefined;
}

/** As the API answers: limit absent = 100; values above 10000 are silently clamped to 10000. */
const DEFAULT_LIMIT = 100;
const MAX_LIMIT = 10_000;
const U32_MAX = 4_294_967_295;
const SORT_MODES: readonly string[] = ["created_at_ascending", "created_at_descending"];

/** Repeated query parameters: the last value wins, as on the API. */
function lastValue(query: URLSearchParams, name: string): string | undefined {
  return query.getAll(name).at(-1);
}

function badQuery(requestId: string, reason: string): Reply {
  return errorReply(requestId, 400, `unable to parse query string: ${reason}`);
}

/**
 * Bearer auth; the listing and the operations are scoped to the token's user. Returns the user's
 * index or a 401. Unknown and missing tokens get the same answer.
 */
export function authenticate(
  ctx: RouteContext,
  requestId: string,
  authorization: string | undefined,
): number | Reply {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "");
  const user = match?.[1] === undefined ? undefined : ctx.dataset.userIndexByToken(match[1]);
  return user ?? errorReply(requestId, 401, "unauthorized: a valid API token is required");
}

/** What a paginated listing's query asks for: Dropshot's PaginationParams with a sort mode. */
export interface ListQuery {
  limit: number;
  order: SortMode;
  /** The key of the last item served, from the page token; null for a first page. */
  after: SortKey | null;
}

/** A listing's `limit` (absent: 100; above 10000: 10000), or the 400 Dropshot answers to a bad one. */
export function parseLimit(requestId: string, query: URLSearchParams): number | Reply {
  const rawLimit = lastValue(query, "limit");
  if (rawLimit === undefined) return DEFAULT_LIMIT;
  // Dropshot parses limit as a non-zero u32; these are the Rust parser's messages.
  if (rawLimit === "") return badQuery(requestId, "cannot parse integer from empty string");
  if (!/^\+?\d+$/.test(rawLimit)) return badQuery(requestId, "invalid digit found in string");
  const n = Number(rawLimit.replace("+", ""));
  if (n > U32_MAX) return badQuery(requestId, "number too large to fit in target type");
  if (n === 0) return badQuery(requestId, "expected a non-zero value");
  return Math.min(n, MAX_LIMIT);
}

/** The query of a paginated listing, or the 400 Dropshot answers to a bad one. */
export function parseListQuery(requestId: string, query: URLSearchParams): ListQuery | Reply {
  const limit = parseLimit(requestId, query);
  if (typeof limit !== "number") return limit;

  let order: SortMode = "created_at_descending";
  let after: SortKey | null = null;
  const rawToken = lastValue(query, "page_token");
  if (rawToken !== undefined) {
    // With a token Dropshot ignores sort_by: the scan mode travels inside the token.
    const decoded = decodePageToken(rawToken);
    if (!decoded.ok) return badQuery(requestId, `failed to parse pagination token: ${decoded.reason}`);
    order = decoded.token.sortBy;
    after = { createdUs: decoded.token.createdUs, id: decoded.token.id };
  } else {
    const rawSort = lastValue(query, "sort_by");
    if (rawSort !== undefined) {
      if (!SORT_MODES.includes(rawSort)) {
        return badQuery(
          requestId,
          `unknown variant \`${rawSort}\`, expected \`created_at_ascending\` or \`created_at_descending\``,
        );
      }
      order = rawSort as SortMode;
    }
    // Absent: newest first, as the spec's description of user_list_api_calls says.
  }
  return { limit, order, after };
}

/**
 * GET /user/api-calls (operationId user_list_api_calls). The query string is checked before auth
 * (an inference: Dropshot runs its extractors, Query<PaginationParams>, before the handler body,
 * where Zoo's auth presumably lives), so a bad query is a 400 even without a token.
 */
export function listApiCalls(
  ctx: RouteContext,
  requestId: string,
  query: URLSearchParams,
  authorization: string | undefined,
): Reply {
  const list = parseListQuery(requestId, query);
  if ("status" in list) return list;
  const user = authenticate(ctx, requestId, authorization);
  if (typeof user !== "number") return user;
  const { order, after, limit } = list;
  const nowUs = microsFromDate(ctx.now());
  const indices = ctx.dataset.pageIndices(user, nowUs, order, after, limit);
  const recorded = ctx.recorded?.page(user, nowUs, order, after, limit) ?? [];
  return callsPageReply(ctx, nowUs, mergePage(indices, ctx.dataset.keyOf, recorded, order, limit), order);
}

/** A page of calls as Dropshot's ResultsPage, with the token of its last call. */
export function callsPageReply(
  ctx: RouteContext,
  nowUs: number,
  entries: PageEntry[],
  order: SortMode,
): Reply {
  const keyOf = ctx.dataset.keyOf;
  // Dropshot sets next_page on every non-empty page, even a short last one; only an empty page ends
  // the scan.
  const last = entries.at(-1);
  const lastKey = last === undefined ? undefined : "recorded" in last ? last.recorded : keyOf(last.index);
  const next =
    lastKey === undefined
      ? "null"
      : `"${encodePageToken(order, formatMicros(lastKey.createdUs), lastKey.id)}"`;
  // ~700 bytes per item; sizing the buffer up front avoids regrowth on big pages.
  const body = new ByteWriter(1024 + entries.length * 800);
  // Dropshot's ResultsPage { next_page, items }, serialised in declaration order: the token first.
  body.ascii(`{"next_page":${next},"items":[`);
  for (let k = 0; k < entries.length; k++) {
    if (k > 0) body.charCode(44);
    const entry = entries[k];
    if (entry === undefined) continue;
    if ("recorded" in entry) body.raw(entry.recorded.json);
    else ctx.dataset.writeCall(body, ctx.dataset.rawCallAt(entry.index, nowUs), ctx.priceAsString);
  }
  body.ascii("]}");
  return { status: 200, body: body.bytes() };
}

/**
 * GET /async/operations/{id} (operationId get_async_operation). Another user's operation is a 404
 * like an unknown one, so its existence does not leak (spec: "If the user is not authenticated to
 * view the specified async operation, then it is not returned").
 */
export function getAsyncOperation(
  ctx: RouteContext,
  requestId: string,
  rawId: string,
  authorization: string | undefined,
): Reply {
  let id: string;
  try {
    id = decodeURIComponent(rawId);
  } catch {
    id = rawId;
  }
  if (!UUID_PATTERN.test(id)) {
    return errorReply(
      requestId,
      400,
      `unable to parse path parameter "id": invalid UUID ${JSON.stringify(id)}`,
    );
  }
  const user = authenticate(ctx, requestId, authorization);
  if (typeof user !== "number") return user;
  const operation = ctx.dataset.operationFor(id, ctx.now());
  if (operation === undefined || operation.user_id !== ctx.dataset.userId(user)) {
    return errorReply(requestId, 404, `not found: no async operation with id ${id.toLowerCase()}`);
  }
  const body =
    ctx.outputBytes === undefined
      ? JSON.stringify(operation)
      : operationJsonWithOutputBytes(operation, ctx.outputBytes);
  return { status: 200, body };
}

/** A path parameter `id` that must be a UUID, percent-decoded; a 400 in Dropshot's words otherwise. */
export function uuidParameter(requestId: string, rawId: string): string | Reply {
  let id: string;
  try {
    id = decodeURIComponent(rawId);
  } catch {
    id = rawId;
  }
  if (UUID_PATTERN.test(id)) return id.toLowerCase();
  return errorReply(
    requestId,
    400,
    `unable to parse path parameter "id": invalid UUID ${JSON.stringify(id)}`,
  );
}

/**
 * GET /user/api-calls/{id} (operationId get_api_call_for_user): one ApiCallWithPrice as the listing
 * shows it now, billing included. Another user's call is a 404 like an unknown id, and so is a call
 * not listed yet, so neither leaks that it exists.
 */
export function getApiCall(
  ctx: RouteContext,
  requestId: string,
  rawId: string,
  authorization: string | undefined,
): Reply {
  const id = uuidParameter(requestId, rawId);
  if (typeof id !== "string") return id;
  const user = authenticate(ctx, requestId, authorization);
  if (typeof user !== "number") return user;
  const nowUs = microsFromDate(ctx.now());
  const index = ctx.dataset.visibleCallIndexForUser(id, user, nowUs);
  if (index === undefined) return errorReply(requestId, 404, `not found: no API call with id ${id}`);
  const body = new ByteWriter(2048);
  ctx.dataset.writeCall(body, ctx.dataset.rawCallAt(index, nowUs), ctx.priceAsString);
  return { status: 200, body: body.bytes() };
}
