import type { ZooClient } from "../api/client.js";

/** Pages one small listing reads at most: tokens and members are tens, not millions. */
const MAX_PAGES = 1000;

/**
 * Every item of a ResultsPage listing (GET /user/api-tokens, /org/members, ...), raw, in ascending
 * created_at: pages until the API returns an empty page or no next_page. The listings it is used for
 * are small, so the items are kept in memory; a listing that does not end within MAX_PAGES pages is
 * an error rather than a loop.
 */
export async function listAll(
  client: ZooClient,
  path: string,
  options: { limit: number; signal?: AbortSignal | undefined },
): Promise<unknown[]> {
  const items: unknown[] = [];
  let pageToken: string | null = null;
  for (let page = 0; page < MAX_PAGES; page++) {
    const result = await client.listPage(path, { limit: options.limit, pageToken, signal: options.signal });
    items.push(...result.items);
    if (result.items.length === 0 || result.nextPage === null) return items;
    pageToken = result.nextPage;
  }
  throw new Error(`GET ${path} did not end within ${MAX_PAGES} pages`);
}
