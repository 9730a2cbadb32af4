import type { Dataset } from "./dataset.js";
import type { SortKey, SortMode } from "./keysetPage.js";
import { mergePage, type PageEntry, type RecordedCalls } from "./recordedCalls.js";

export interface OrgPageRequest {
  nowUs: number;
  order: SortMode;
  after: SortKey | null;
  limit: number;
}

/**
 * One page of GET /org/api-calls: the members' calls merged in the listing's (created_at, id)
 * order, with the same keyset rule as a user's listing. Each member's own listing is already in
 * that order, so the page is the first `limit` of a k-way merge of the members' next `limit` calls:
 * the work is members x limit per page and nothing grows with the dataset (no index of the org).
 * Keys compare by created_at, and only a tie computes the ids (an id costs a few hashes).
 */
export function orgPageEntries(
  dataset: Dataset,
  recorded: RecordedCalls | undefined,
  members: readonly number[],
  request: OrgPageRequest,
): PageEntry[] {
  const { nowUs, order, after, limit } = request;
  const sign = order === "created_at_ascending" ? 1 : -1;
  const generated = mergeSorted(
    members.map((u) => dataset.pageIndices(u, nowUs, order, after, limit)),
    (a, b) => sign * compareIndices(dataset, a, b),
    limit,
  );
  const own = mergeSorted(
    members.map((u) => recorded?.page(u, nowUs, order, after, limit) ?? []),
    (a, b) => sign * compareKeys(a, b),
    limit,
  );
  return mergePage(generated, dataset.keyOf, own, order, limit);
}

/** The first `limit` items of lists each sorted by `compare`, merged. */
function mergeSorted<T>(
  lists: readonly (readonly T[])[],
  compare: (a: T, b: T) => number,
  limit: number,
): T[] {
  const nonEmpty = lists.filter((list) => list.length > 0);
  if (nonEmpty.length <= 1) return (nonEmpty[0] ?? []).slice(0, limit);
  const heads = nonEmpty.map(() => 0);
  const out: T[] = [];
  while (out.length < limit) {
    let best = -1;
    let bestItem: T | undefined;
    for (let k = 0; k < nonEmpty.length; k++) {
      const list = nonEmpty[k] as readonly T[];
      const position = heads[k] as number;
      if (position >= list.length) continue;
      const item = list[position] as T;
      if (bestItem === undefined || compare(item, bestItem) < 0) {
        best = k;
        bestItem = item;
      }
    }
    if (bestItem === undefined) break;
    out.push(bestItem);
    heads[best] = (heads[best] as number) + 1;
  }
  return out;
}

function compareIndices(dataset: Dataset, a: number, b: number): number {
  const diff = dataset.createdAt(a) - dataset.createdAt(b);
  if (diff !== 0) return diff;
  const idA = dataset.idOf(a);
  const idB = dataset.idOf(b);
  return idA < idB ? -1 : idA > idB ? 1 : 0;
}

function compareKeys(a: SortKey, b: SortKey): number {
  if (a.createdUs !== b.createdUs) return a.createdUs - b.createdUs;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}
