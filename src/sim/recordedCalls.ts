import { derivedUuid } from "./identity.js";
import type { SortKey, SortMode } from "./keysetPage.js";
import { SALT } from "./salts.js";
import { formatMicros } from "./time.js";
import type { ApiCallRecord } from "./types.js";
import type { UserProfile } from "./users.js";

/** What the server knows about one request it answered for an authenticated user. */
export interface ServedRequest {
  user: number;
  method: string;
  /** The concrete path, e.g. /async/operations/0198..., as Zoo's `endpoint` holds it. */
  endpoint: string;
  query: string;
  statusCode: number;
  userAgent: string;
  origin: string;
  ipAddress: string;
  createdUs: number;
}

/** One recorded call: its sort key and its record, rendered once (it never changes). */
export interface RecordedCall {
  createdUs: number;
  id: string;
  json: Buffer;
}

/**
 * The calls the simulator's own API requests leave behind. Every request the real API serves is an
 * API call of the user who made it, listed by GET /user/api-calls like any other; the generated
 * history cannot hold them (it is a pure function of seed and index), so they live here, appended
 * as requests arrive, and each page merges them into the generated calls by (created_at, id).
 *
 * A request made at `nowUs` is listed only once the clock has moved past it (created_at < now):
 * otherwise a scan would always find the calls of its own previous page and never reach the end.
 */
export class RecordedCalls {
  readonly #seed: number;
  readonly #priceAsString: boolean;
  /** Per user, sorted by (createdUs, id). Appends come in clock order, so only a tie needs a search. */
  readonly #byUser: RecordedCall[][] = [];
  #count = 0;

  constructor(seed: number, priceAsString: boolean) {
    this.#seed = seed;
    this.#priceAsString = priceAsString;
  }

  get count(): number {
    return this.#count;
  }

  /** Records a served request as a call and returns its id (the response's x-api-call-id). */
  record(owner: UserProfile, request: ServedRequest): string {
    const id = derivedUuid(this.#seed, this.#count, SALT.recordedCall);
    this.#count += 1;
    const record = recordOf(id, owner, request);
    // The price as the generated calls write it: a JSON number, or its decimal string.
    const json = Buffer.from(JSON.stringify(this.#priceAsString ? record : { ...record, price: 0 }));
    const list = this.#listOf(request.user);
    const call = { createdUs: request.createdUs, id, json };
    let p = list.length;
    while (p > 0 && compare(list[p - 1] as RecordedCall, call) > 0) p--;
    list.splice(p, 0, call);
    return id;
  }

  /**
   * Up to `limit` recorded calls of user `u` listed at `nowUs` that sort strictly after `after` in
   * `order`, in that order: the same keyset rule as the generated calls, found by binary search.
   */
  page(u: number, nowUs: number, order: SortMode, after: SortKey | null, limit: number): RecordedCall[] {
    const list = this.#byUser[u];
    if (list === undefined || list.length === 0) return [];
    // Listed once the clock has passed them: the first position at or after now is the end.
    const end = firstAtOrAbove(list, { createdUs: nowUs, id: "" });
    if (order === "created_at_ascending") {
      const start = after === null ? 0 : firstAbove(list, after);
      return list.slice(start, Math.min(end, start + limit));
    }
    const top = after === null ? end : Math.min(end, firstAtOrAbove(list, after));
    return list.slice(Math.max(0, top - limit), top).reverse();
  }

  #listOf(u: number): RecordedCall[] {
    let list = this.#byUser[u];
    if (list === undefined) {
      list = [];
      this.#byUser[u] = list;
    }
    return list;
  }
}

function compare(a: SortKey, b: SortKey): number {
  if (a.createdUs !== b.createdUs) return a.createdUs - b.createdUs;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** First position whose key is > `key`. */
function firstAbove(list: readonly SortKey[], key: SortKey): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compare(list[mid] as SortKey, key) > 0) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** First position whose key is >= `key`. */
function firstAtOrAbove(list: readonly SortKey[], key: SortKey): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compare(list[mid] as SortKey, key) >= 0) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/**
 * The ApiCallWithPrice of a served GET. Reads are free under Zoo's pricing (only compute is
 * charged), so it is settled at once at price 0 and never changes; its run time is not measured.
 */
function recordOf(id: string, owner: UserProfile, request: ServedRequest): ApiCallRecord {
  const at = formatMicros(request.createdUs);
  return {
    id,
    user_id: owner.id,
    created_at: at,
    updated_at: at,
    started_at: at,
    completed_at: at,
    duration: 0,
    email: owner.email,
    endpoint: request.endpoint,
    ip_address: request.ipAddress,
    method: request.method,
    minutes: 0,
    seconds: 0,
    org_id: owner.orgId,
    origin: request.origin,
    price: "0",
    request_query_params: request.query,
    status_code: request.statusCode,
    stripe_invoice_item_id: "",
    token: owner.apiTokens[0] ?? owner.token,
    user_agent: request.userAgent,
  };
}

/** Either a generated call (its index) or a recorded one, in one page's order. */
export type PageEntry = { index: number } | { recorded: RecordedCall };

/**
 * Merges one page of generated calls (`indices`, already in `order`) with one page of recorded ones
 * into the first `limit` entries by (created_at, id). Both inputs hold at most `limit` entries after
 * the same key, so their merge's first `limit` are exactly the page of the union.
 */
export function mergePage(
  indices: readonly number[],
  keyOf: (i: number) => SortKey,
  recorded: readonly RecordedCall[],
  order: SortMode,
  limit: number,
): PageEntry[] {
  if (recorded.length === 0) return indices.map((index) => ({ index }));
  const sign = order === "created_at_ascending" ? 1 : -1;
  const out: PageEntry[] = [];
  let a = 0;
  let b = 0;
  while (out.length < limit && (a < indices.length || b < recorded.length)) {
    const index = indices[a];
    const call = recorded[b];
    if (call === undefined || (index !== undefined && sign * compare(keyOf(index), call) < 0)) {
      out.push({ index: index as number });
      a++;
    } else {
      out.push({ recorded: call });
      b++;
    }
  }
  return out;
}
