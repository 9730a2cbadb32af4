import { setImmediate } from "node:timers/promises";
import type { RawApiCallsPage } from "../api/client.js";

/**
 * Fetches one page. `onNextPageSeen` is told the next page's token as soon as the body has arrived,
 * before it is parsed (when the token can be read from the body's tail).
 */
export type FetchPage = (
  pageToken: string | null,
  onNextPageSeen: (token: string) => void,
) => Promise<RawApiCallsPage>;

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
 * on the current page (so transform and load hide behind the network). The next request leaves as
 * soon as its token is seen in the tail of the page's body, before the page is parsed: that parse
 * (~4 ms a 1000-item page) was a pause between requests, 4.5 s of a 1M-call scan at 50 ms latency.
 * The parsed page's next_page decides: a request sent ahead on another token is dropped. Requests
 * stay one at a time on the wire (the next leaves once the body is in). A scan ends on a page with
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
  /** The request sent ahead on a token read from a body's tail, until the parsed page confirms it. */
  let ahead: { token: string; page: Promise<RawApiCallsPage> } | undefined;
  /** Tokens of requests sent ahead and then dropped: their own bodies send nothing further ahead. */
  const dropped = new Set<string | null>();
  const request = (token: string | null): Promise<RawApiCallsPage> =>
    fetchPage(token, (next) => {
      if (ahead !== undefined || dropped.has(token) || seenTokens.has(next)) return;
      const page = request(next);
      // A dropped guess must not surface as an unhandled rejection.
      page.catch(() => undefined);
      ahead = { token: next, page };
    });
  /** The request sent ahead for `token`, if that is what was guessed; any other guess is dropped. */
  const takeAhead = (token: string): Promise<RawApiCallsPage> | undefined => {
    const sent = ahead;
    ahead = undefined;
    if (sent === undefined) return undefined;
    if (sent.token === token) return sent.page;
    dropped.add(sent.token);
    return undefined;
  };
  let requestToken = startToken;
  let inFlight: Promise<RawApiCallsPage> | null = request(requestToken);
  let emptyWithToken = 0;
  try {
    while (inFlight !== null) {
      const page: RawApiCallsPage = await inFlight;
      inFlight = null;
      const next: string | null = page.nextPage;
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
        inFlight = takeAhead(next) ?? request(next);
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
