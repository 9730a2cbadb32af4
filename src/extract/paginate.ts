import { createHash } from "node:crypto";
import { setImmediate } from "node:timers/promises";
import type { RawApiCallsPage } from "../api/client.js";
import { PaginationAnomaly } from "./paginationAnomaly.js";

/**
 * Fetches one page. `onNextPageSeen` is told the next page's token as soon as it can be read: from
 * the body's first bytes while the rest is arriving (Dropshot's order, token first), or from its
 * tail once it is in, before it is parsed. `signal` aborts a request
 * sent ahead whose page nobody will read (a dropped guess, or a scan that stopped).
 */
export type FetchPage = (
  pageToken: string | null,
  onNextPageSeen: (token: string) => void,
  signal: AbortSignal,
) => Promise<RawApiCallsPage>;

export interface PageEvent {
  page: RawApiCallsPage;
  /** The token that fetched this page (null for the first page of a scan). */
  requestToken: string | null;
}

/** Consecutive empty pages that still carry a token, before the scan is stopped as an anomaly. */
const MAX_EMPTY_PAGES_WITH_TOKEN = 3;

export interface PaginateOptions {
  /** Pages one scan reads at most; past it the scan stops, resumable from the next token. */
  maxPages: number;
  /** What is listed, for the anomaly's message ("GET /user/api-tokens"); the calls' scan by default. */
  listing?: string | undefined;
}

/**
 * Yields the pages of one scan in order, keeping the next request in flight while the caller works
 * on the current page (so transform and load hide behind the network). The next request leaves as
 * soon as its token is seen, before the page is parsed: in the head of a token-first body (the
 * order Dropshot writes) while the rest of it is still arriving, or in the tail of an items-first
 * one: otherwise that parse would be a pause between requests on every page. The parsed page's next_page decides: a request sent ahead on another token is
 * dropped. At most one request is sent ahead, so at most two are on the wire. A scan ends on a page with
 * no `next_page` (Dropshot sends `items: []`, `next_page: null` last).
 * A cursor that does not advance throws a PaginationAnomaly after the page that showed it is
 * yielded (its items are as good as any): a token handed out twice (a loop), a run of empty pages
 * that still carry a token (Dropshot ends on the first empty page), or more than `maxPages` pages.
 */
export async function* paginate(
  fetchPage: FetchPage,
  startToken: string | null,
  options: PaginateOptions,
): AsyncGenerator<PageEvent> {
  /** Digests, not the tokens: a token is the server's text, of any length. */
  const seenTokens = new Set<string>();
  if (startToken !== null) seenTokens.add(digestOf(startToken));
  /** The request sent ahead on a token read before the parse, until the parsed page confirms it. */
  let ahead: { token: string; page: Promise<RawApiCallsPage>; abandon: AbortController } | undefined;
  /** Tokens of requests sent ahead and then dropped: their own bodies send nothing further ahead. */
  const dropped = new Set<string | null>();
  /** Requests sent: none is sent ahead past maxPages, where the scan stops. */
  let requestsSent = 0;
  /** Aborts every request of this scan when the scan ends, so none is retried after it. */
  const scanEnded = new AbortController();
  const request = (
    token: string | null,
    signal: AbortSignal = scanEnded.signal,
  ): Promise<RawApiCallsPage> => {
    requestsSent += 1;
    const onNextPageSeen = (next: string) => {
      if (ahead !== undefined || dropped.has(token) || requestsSent >= options.maxPages) return;
      if (seenTokens.has(digestOf(next))) return;
      const abandon = new AbortController();
      const page = request(next, AbortSignal.any([scanEnded.signal, abandon.signal]));
      // A dropped guess must not surface as an unhandled rejection.
      page.catch(() => undefined);
      ahead = { token: next, page, abandon };
    };
    return fetchPage(token, onNextPageSeen, signal);
  };
  /** The request sent ahead for `token`, if that is what was guessed; any other guess is dropped. */
  const takeAhead = (token: string): Promise<RawApiCallsPage> | undefined => {
    const sent = ahead;
    ahead = undefined;
    if (sent === undefined) return undefined;
    if (sent.token === token) return sent.page;
    dropped.add(sent.token);
    sent.abandon.abort();
    return undefined;
  };
  let requestToken = startToken;
  let inFlight: Promise<RawApiCallsPage> | null = request(requestToken);
  let pages = 0;
  let emptyWithToken = 0;
  /** The token of the first page of the current run of empty pages: where the data ended. */
  let emptyFrom: string | null = null;
  try {
    while (inFlight !== null) {
      const page: RawApiCallsPage = await inFlight;
      inFlight = null;
      pages += 1;
      const next: string | null = page.nextPage;
      let anomaly: PaginationAnomaly | undefined;
      if (next !== null) {
        if (page.items.length > 0) {
          emptyWithToken = 0;
        } else {
          if (emptyWithToken === 0) emptyFrom = requestToken;
          emptyWithToken += 1;
        }
        if (seenTokens.has(digestOf(next))) {
          anomaly = new PaginationAnomaly(
            `page ${pages} of this scan handed out the page token of an earlier page again, which would loop`,
            requestToken,
            options.listing,
          );
        } else if (emptyWithToken >= MAX_EMPTY_PAGES_WITH_TOKEN) {
          anomaly = new PaginationAnomaly(
            `${emptyWithToken} empty pages in a row still carried a next page token (the API ends a scan with one empty page and no token)`,
            emptyFrom,
            options.listing,
          );
        } else if (pages >= options.maxPages) {
          anomaly = new PaginationAnomaly(
            `the scan reached ${pages} pages, the most one run reads, and the API still had a next page`,
            next,
            options.listing,
          );
        }
      }
      if (anomaly === undefined && next !== null) {
        seenTokens.add(digestOf(next));
        inFlight = takeAhead(next) ?? request(next);
        // It may fail while the consumer still works on this page (waiting for a commit): its
        // failure is thrown where it is awaited, and must not surface before as an unhandled rejection.
        inFlight.catch(() => undefined);
        // Let the event loop turn once so the request leaves on the socket now: the consumer's
        // transform of this page runs synchronously and would otherwise hold it back.
        await setImmediate();
      }
      yield { page, requestToken };
      if (anomaly !== undefined) throw anomaly;
      requestToken = next;
    }
  } finally {
    // An abandoned prefetch must not surface later as an unhandled rejection, nor be retried.
    inFlight?.catch(() => undefined);
    ahead?.page.catch(() => undefined);
    scanEnded.abort();
  }
}

function digestOf(token: string): string {
  return createHash("sha256").update(token).digest("base64");
}
