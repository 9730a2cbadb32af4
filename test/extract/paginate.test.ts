import { afterAll, beforeAll, expect, test } from "vitest";
import type { ZooClient } from "../../src/api/client.js";
import { createClient } from "../../src/api/createClient.js";
import { clientSettings, loadApiConfig } from "../../src/config/apiConfig.js";
import { type FetchPage, type PaginateOptions, paginate } from "../../src/extract/paginate.js";
import { PaginationAnomaly } from "../../src/extract/paginationAnomaly.js";
import { createLogger } from "../../src/log/logger.js";
import { type RunningSimulator, startSimulator } from "../../src/sim/index.js";

let sim: RunningSimulator;
let client: ZooClient;

beforeAll(async () => {
  sim = await startSimulator({ seed: 5, calls: 1200, days: 6, users: 1 });
  const config = loadApiConfig({ flags: { baseUrl: sim.url }, env: { ZOO_API_TOKEN: sim.users[0]?.token } });
  client = createClient(clientSettings(config), {
    logger: createLogger({ level: "error", write: () => undefined }),
    sleep: async () => undefined,
    random: () => 0.5,
  });
});
afterAll(async () => {
  await client.close();
  await sim.close();
});

/** Every page of one scan at limit 100, with what happened in order: requests sent, pages parsed. */
async function scan(
  guess: (seen: string, page: number) => string = (seen) => seen,
  options: PaginateOptions = { maxPages: 1000 },
) {
  const events: string[] = [];
  let requests = 0;
  const fetchPage: FetchPage = (token, onNextPageSeen) => {
    events.push(`request ${token}`);
    const page = requests++;
    return client
      .listApiCalls({
        limit: 100,
        pageToken: token,
        onNextPageSeen: (seen) => onNextPageSeen(guess(seen, page)),
      })
      .then((parsed) => {
        events.push(`parsed ${token} -> ${parsed.nextPage}`);
        return parsed;
      });
  };
  const before = sim.stats.requests;
  const ids: string[] = [];
  const tokens: (string | null)[] = [];
  let anomaly: unknown;
  try {
    for await (const { page, requestToken } of paginate(fetchPage, null, options)) {
      tokens.push(requestToken);
      for (const item of page.items) ids.push((item as { id: string }).id);
    }
  } catch (error) {
    anomaly = error;
  }
  return { events, ids, tokens, anomaly, serverRequests: sim.stats.requests - before };
}

test("the next request leaves from the tail of a page's body, before that page is parsed, and none is wasted", async () => {
  const { events, ids, anomaly, serverRequests } = await scan();
  expect(new Set(ids).size).toBe(1200);
  expect(anomaly).toBeUndefined();
  // 12 full pages and the empty last one (Dropshot's paging: ceil(N/L) + 1 requests).
  expect(serverRequests).toBe(13);
  const parsed = events.filter((event) => event.startsWith("parsed"));
  expect(parsed).toHaveLength(13);
  for (const event of parsed) {
    const next = event.split(" -> ")[1];
    if (next === "null") continue;
    // Requested before the page that names it was parsed.
    expect(events.indexOf(`request ${next}`)).toBeLessThan(events.indexOf(event));
  }
});

test("a request sent on a guess the parsed page does not confirm is dropped, and the scan is unchanged", async () => {
  // The third page's tail is misread: that request fails (a token the server never issued) or
  // returns another page; either way it is dropped and the confirmed token is requested instead.
  const { ids, anomaly, serverRequests, events } = await scan((seen, page) =>
    page === 2 ? "not-a-page-token" : seen,
  );
  expect(new Set(ids).size).toBe(1200);
  expect(ids).toHaveLength(1200);
  expect(anomaly).toBeUndefined();
  expect(events).toContain("request not-a-page-token");
  expect(serverRequests).toBe(14);
});

test("a scan stops after maxPages pages, as an anomaly that resumes from the next page's token", async () => {
  const { ids, tokens, anomaly, serverRequests } = await scan(undefined, { maxPages: 5 });
  expect(anomaly).toBeInstanceOf(PaginationAnomaly);
  expect((anomaly as PaginationAnomaly).code).toBe("api.pagination_anomaly");
  expect((anomaly as PaginationAnomaly).message).toMatch(/reached 5 pages/);
  // The five pages were yielded; nothing was requested past them.
  expect(ids).toHaveLength(500);
  expect(serverRequests).toBe(5);
  // Resuming from the token the anomaly names reads the rest, none twice.
  const resumeFrom = (anomaly as PaginationAnomaly).resumeFrom;
  expect(resumeFrom).not.toBeNull();
  expect(tokens).not.toContain(resumeFrom);
  const rest: string[] = [];
  const fetchRest: FetchPage = (token, onNextPageSeen) =>
    client.listApiCalls({ limit: 100, pageToken: token, onNextPageSeen });
  for await (const { page } of paginate(fetchRest, resumeFrom, { maxPages: 1000 })) {
    for (const item of page.items) rest.push((item as { id: string }).id);
  }
  expect(new Set([...ids, ...rest]).size).toBe(1200);
  expect(rest).toHaveLength(700);
});
