import type { UserIndex } from "./userIndex.js";

export type SortMode = "created_at_ascending" | "created_at_descending";

/** A position in the (created_at, id) order: the key Dropshot keyset pagination resumes after. */
export interface SortKey {
  createdUs: number;
  id: string;
}

/** What paging needs to know about a call. */
export interface KeysetCalls {
  createdAt(i: number): number;
  idOf(i: number): string;
  /** When call i first appears in the listing (see Timeline.visibleFrom). */
  visibleFrom(i: number): number;
}

export interface PageRequest {
  nowUs: number;
  order: SortMode;
  /** The key of the last call served, from the page token; null for a first page. */
  after: SortKey | null;
  limit: number;
}

/**
 * One page of Dropshot keyset pagination over a user's list of call indices (list[0, end), in index
 * order, which is created_at order): up to `limit` calls listed at `nowUs` that sort strictly after
 * `after`. The order is (created_at, id), both descending in descending mode: the key a page token
 * carries is the pair, so calls that tie on created_at are ordered by id, and a token that ends a
 * page inside a tie group resumes exactly after its call.
 */
export function keysetPage(calls: KeysetCalls, list: UserIndex, end: number, request: PageRequest): number[] {
  const { nowUs, after, limit } = request;
  const descending = request.order === "created_at_descending";
  const out: number[] = [];
  // Only the group at the key's created_at can hold calls that do not sort after the key.
  let key = after;
  let p: number;
  if (descending) p = (after === null ? end : firstWhere(calls, list, end, (c) => c > after.createdUs)) - 1;
  else p = after === null ? 0 : firstWhere(calls, list, end, (c) => c >= after.createdUs);
  while (p >= 0 && p < end && out.length < limit) {
    const group = tieGroup(calls, list, end, p, descending);
    if (group.length > 1) {
      const ids = group.map((i) => ({ i, id: calls.idOf(i) }));
      ids.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0) * (descending ? -1 : 1));
      group.splice(0, group.length, ...ids.map(({ i }) => i));
    }
    for (const i of group) {
      if (out.length >= limit) break;
      if (calls.visibleFrom(i) > nowUs) continue;
      if (key !== null) {
        const c = compare(calls, i, key);
        if (descending ? c >= 0 : c <= 0) continue;
      }
      out.push(i);
    }
    key = null;
    p += descending ? -group.length : group.length;
  }
  return out;
}

/**
 * The calls of the tie group at list position p, walking in the scan's direction. A group's calls
 * are neighbours in the list: one user owns a whole group (Dataset.userIndexOf).
 */
function tieGroup(
  calls: KeysetCalls,
  list: UserIndex,
  end: number,
  p: number,
  descending: boolean,
): number[] {
  const first = list.at(p);
  const group = [first];
  const createdUs = calls.createdAt(first);
  const step = descending ? -1 : 1;
  for (let q = p + step; q >= 0 && q < end; q += step) {
    const i = list.at(q);
    if (calls.createdAt(i) !== createdUs) break;
    group.push(i);
  }
  return group;
}

/** Binary search: the first position in list[0, end) whose created_at passes `test` (monotone). */
function firstWhere(
  calls: KeysetCalls,
  list: UserIndex,
  end: number,
  test: (createdUs: number) => boolean,
): number {
  let lo = 0;
  let hi = end;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (test(calls.createdAt(list.at(mid)))) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** Compares call i with a sort key by (created_at, id), as the API's ordering does. */
function compare(calls: KeysetCalls, i: number, key: SortKey): number {
  const diff = calls.createdAt(i) - key.createdUs;
  if (diff !== 0) return diff;
  const id = calls.idOf(i);
  return id < key.id ? -1 : id > key.id ? 1 : 0;
}
