import { expect, test } from "vitest";
import { PageItems } from "../../src/api/pageItems.js";
import { type FetchPage, paginate } from "../../src/extract/paginate.js";
import { PaginationAnomaly } from "../../src/extract/paginationAnomaly.js";

/**
 * paginate's guards, with the pages served from memory: no HTTP, so every case takes microseconds
 * and the order of requests is exact. The HTTP behaviour (the next request leaving from a body's
 * tail) is tested against the simulator in test/extract/paginate.test.ts.
 */
interface FakePage {
  items: string[];
  next: string | null;
}

/** The key of the page a scan without a token starts on. */
const FIRST = "(first)";

/**
 * A fetchPage over a map from request token to page. As a real body would, each page tells its
 * next token (or, with `misread`, another one) before it resolves; an unknown token fails like a
 * token the server never issued.
 */
function fakeApi(pages: Record<string, FakePage>, misread?: (next: string) => string) {
  const requests: (string | null)[] = [];
  const signals = new Map<string | null, AbortSignal>();
  const fetchPage: FetchPage = async (token, onNextPageSeen, signal) => {
    requests.push(token);
    signals.set(token, signal);
    const page = pages[token ?? FIRST];
    await Promise.resolve();
    if (page === undefined) throw new Error(`400: no page for token ${token}`);
    if (page.next !== null) onNextPageSeen(misread ? misread(page.next) : page.next);
    await Promise.resolve();
    return { items: PageItems.parsed(page.items), nextPage: page.next, requestId: undefined };
  };
  return { fetchPage, requests, signals };
}

/**
 * Runs one scan to its end, or to the anomaly that stops it (at most 100 pages: the page bound, so a
 * guard that fails never hangs the test).
 */
async function scan(fetchPage: FetchPage, startToken: string | null = null, maxPages = 100) {
  const items: string[] = [];
  const requestTokens: (string | null)[] = [];
  let anomaly: PaginationAnomaly | undefined;
  try {
    for await (const { page, requestToken } of paginate(fetchPage, startToken, { maxPages })) {
      items.push(...([...page.items] as string[]));
      requestTokens.push(requestToken);
    }
  } catch (error) {
    if (!(error instanceof PaginationAnomaly)) throw error;
    anomaly = error;
  }
  return { items, requestTokens, anomaly };
}

const THREE_PAGES: Record<string, FakePage> = {
  [FIRST]: { items: ["a", "b"], next: "t1" },
  t1: { items: ["c", "d"], next: "t2" },
  t2: { items: ["e"], next: "t3" },
  // Dropshot ends a scan with an empty page and no token.
  t3: { items: [], next: null },
};

test("a scan follows next_page to the empty last page, each token requested once", async () => {
  const api = fakeApi(THREE_PAGES);
  const { items, requestTokens, anomaly } = await scan(api.fetchPage);
  expect(items).toEqual(["a", "b", "c", "d", "e"]);
  expect(requestTokens).toEqual([null, "t1", "t2", "t3"]);
  expect(api.requests).toEqual([null, "t1", "t2", "t3"]);
  expect(anomaly).toBeUndefined();
});

test("a start token: the scan starts there and the first page says which token fetched it", async () => {
  const api = fakeApi(THREE_PAGES);
  const { items, requestTokens } = await scan(api.fetchPage, "t1");
  expect(items).toEqual(["c", "d", "e"]);
  expect(requestTokens).toEqual(["t1", "t2", "t3"]);
  expect(api.requests).toEqual(["t1", "t2", "t3"]);
});

test("a token handed back twice stops the scan as an anomaly instead of looping", async () => {
  const api = fakeApi({
    [FIRST]: { items: ["a"], next: "t1" },
    t1: { items: ["b"], next: "t2" },
    t2: { items: ["c"], next: "t1" },
  });
  const { items, anomaly } = await scan(api.fetchPage);
  // The page that repeats the token is still delivered; its repeated token is never requested again.
  expect(items).toEqual(["a", "b", "c"]);
  expect(api.requests).toEqual([null, "t1", "t2"]);
  expect(anomaly?.message).toMatch(/page token of an earlier page again/);
  // The next run starts from the page that handed out the repeated token.
  expect(anomaly?.resumeFrom).toBe("t2");
});

test("a start token handed out again by a later page is a loop too", async () => {
  const api = fakeApi({ t1: { items: ["b"], next: "t2" }, t2: { items: ["c"], next: "t1" } });
  const { anomaly } = await scan(api.fetchPage, "t1");
  expect(api.requests).toEqual(["t1", "t2"]);
  expect(anomaly?.message).toMatch(/earlier page again/);
});

test("the page bound stops a scan that would go on, resumable from the next token", async () => {
  const pages: Record<string, FakePage> = { [FIRST]: { items: ["p0"], next: "n1" } };
  for (let i = 1; i < 50; i++) pages[`n${i}`] = { items: [`p${i}`], next: `n${i + 1}` };
  const api = fakeApi(pages);
  const { items, anomaly } = await scan(api.fetchPage, null, 5);
  expect(items).toEqual(["p0", "p1", "p2", "p3", "p4"]);
  // Nothing is requested past the bound, not even ahead.
  expect(api.requests).toEqual([null, "n1", "n2", "n3", "n4"]);
  expect(anomaly?.message).toMatch(/reached 5 pages/);
  expect(anomaly?.resumeFrom).toBe("n5");
});

test("three empty pages in a row that still carry a token stop the scan as an anomaly", async () => {
  const api = fakeApi({
    [FIRST]: { items: ["a"], next: "e1" },
    e1: { items: [], next: "e2" },
    e2: { items: [], next: "e3" },
    e3: { items: [], next: "e4" },
    e4: { items: ["never read"], next: null },
  });
  const { items, anomaly } = await scan(api.fetchPage);
  expect(items).toEqual(["a"]);
  expect(api.requests).not.toContain("e4");
  expect(anomaly?.message).toMatch(/3 empty pages in a row/);
  // The next run starts where the data ended: the first empty page.
  expect(anomaly?.resumeFrom).toBe("e1");
});

test("empty pages with a token, interrupted by a page with items, do not end the scan", async () => {
  const api = fakeApi({
    [FIRST]: { items: [], next: "e1" },
    e1: { items: [], next: "t1" },
    t1: { items: ["a"], next: "e2" },
    e2: { items: [], next: "e3" },
    e3: { items: [], next: "t2" },
    t2: { items: ["b"], next: "end" },
    end: { items: [], next: null },
  });
  const { items, anomaly } = await scan(api.fetchPage);
  expect(items).toEqual(["a", "b"]);
  expect(anomaly).toBeUndefined();
});

test("a token read ahead that the parsed page does not confirm is dropped, and the scan is unchanged", async () => {
  // Every body's tail is misread: the request sent on the guess fails (a token the server never
  // issued) and is dropped without an unhandled rejection; the confirmed token is requested instead.
  const api = fakeApi(THREE_PAGES, (next) => `${next}-misread`);
  const { items, requestTokens, anomaly } = await scan(api.fetchPage);
  expect(items).toEqual(["a", "b", "c", "d", "e"]);
  expect(requestTokens).toEqual([null, "t1", "t2", "t3"]);
  expect(anomaly).toBeUndefined();
  expect(api.requests).toContain("t1-misread");
  // A dropped guess is aborted, so the client makes no further attempt at it.
  expect(api.signals.get("t1-misread")?.aborted).toBe(true);
  // The confirmed tokens, each once, in order.
  expect(api.requests.filter((token) => !token?.endsWith("-misread"))).toEqual([null, "t1", "t2", "t3"]);
});

test("a token read ahead and confirmed is the request the next page comes from: nothing is sent twice", async () => {
  const api = fakeApi(THREE_PAGES);
  const seenBeforeFirstPage: (string | null)[] = [];
  for await (const { requestToken } of paginate(api.fetchPage, null, { maxPages: 100 })) {
    if (requestToken === null) seenBeforeFirstPage.push(...api.requests);
  }
  // The second page was requested from the first body's tail, before the first page was delivered.
  expect(seenBeforeFirstPage).toEqual([null, "t1"]);
  expect(api.requests).toEqual([null, "t1", "t2", "t3"]);
});
