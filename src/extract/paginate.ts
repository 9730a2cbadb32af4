import { setImmediate } from "node:timers/promises";
import type { RawApiCallsPage } from "../api/client.js";

export type FetchPage = (pageToken: string | null) => Promise<RawApiCallsPage>;

export interface PageEvent {
  page: RawApiCallsPage;
  /** The token that fetched this page (null for the first page of a scan). */
  requestToken: string | null;
}

/** Anomalies that would make a naive loop spin forever or skip data; reported, never silent. */
export interface PaginationWarnings {
  onWarning: (message: string) => void;
}

/** Consecutive empty pages that still carry a token, before the scan is declared over. */
const MAX_EMPTY_PAGES_WITH_TOKEN = 3;

/**
 * Yields the pages of one scan in order, keeping the next request in flight while the caller works
 * on the current page (so transform and load hide behind the network). A scan ends on a page with
 * no `next_page` (Dropshot sends `items: []`, `next_page: null` last; zoo-api.md, Pagination).
 * Guards: a token the server hands back twice, and a run of empty pages that still carry a token,
 * end the scan with a warning instead of looping forever.
 */
export async function* paginate(
  fetchPage: FetchPage,
  startToken: string | null,
  warnings: PaginationWarnings,
): AsyncGenerator<PageEvent> {
  const seenTokens = new Set<string>();
  let requestToken = startToken;
  let inFlight: Promise<RawApiCallsPage> | null = fetchPage(requestToken);
  let emptyWithToken = 0;
  try {
    while (inFlight !== null) {
      const page = await inFlight;
      inFlight = null;
      const next = page.nextPage;
      let stop = next === null;
      if (next !== null && seenTokens.has(next)) {
        warnings.onWarning(
          "the API returned a page token it had already returned; stopping this scan to avoid a loop",
        );
        stop = true;
      }
      if (next !== null && page.items.length === 0) {
        emptyWithToken += 1;
        if (emptyWithToken >= MAX_EMPTY_PAGES_WITH_TOKEN) {
          warnings.onWarning(
            `the API returned ${emptyWithToken} empty pages in a row that still had a next page token; treating the scan as complete`,
          );
          stop = true;
        }
      } else {
        emptyWithToken = 0;
      }
      if (!stop && next !== null) {
        seenTokens.add(next);
        inFlight = fetchPage(next);
        // Let the event loop turn once so the request leaves on the socket now: the consumer's
        // transform of this page runs synchronously and would otherwise hold it back (~20 ms a page).
        await setImmediate();
      }
      yield { page, requestToken };
      requestToken = next;
    }
  } finally {
    // An abandoned prefetch must not surface later as an unhandled rejection.
    inFlight?.catch(() => undefined);
  }
}
