import type { ServerResponse } from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, describe, expect, test } from "vitest";
import type { RawApiCallsPage } from "../../src/api/client.js";
import { createClient } from "../../src/api/createClient.js";
import { clientSettings, loadApiConfig } from "../../src/config/apiConfig.js";
import { silentLogger } from "../../src/log/logger.js";
import { exportOnce, queryDb, tempWorkspace } from "../helpers/exportHarness.js";
import {
  errorBody,
  type HostileApi,
  pageBody,
  pagedHandler,
  sendJson,
  startHostileApi,
  validCall,
} from "../helpers/hostileApi.js";

let api: HostileApi | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});

function clientFor(url: string) {
  const config = loadApiConfig({ flags: { baseUrl: url, maxAttempts: 2 }, env: { ZOO_API_TOKEN: "t" } });
  return createClient(clientSettings(config), { logger: silentLogger });
}

describe("the fast path on both key orders", () => {
  const items = [validCall(1), validCall(2, { user_agent: 'x"],"next_page":"fake' })];

  test.each([
    ["Dropshot's order, next_page first", pageBody(items, "p1")],
    ["items first", `{"items":${JSON.stringify(items)},"next_page":"p1"}`],
  ])("%s: the items' bytes are kept as sent and the token is read ahead", async (_name, body) => {
    api = await startHostileApi((request, res) => {
      if (request.query.get("page_token") === null) sendJson(res, 200, body);
      else sendJson(res, 200, pageBody([], null));
    });
    const client = clientFor(api.url);
    try {
      const seen: string[] = [];
      const page = await client.listApiCalls({ limit: 2, onNextPageSeen: (token) => seen.push(token) });
      expect(itemsText(page)).toBe(JSON.stringify(items));
      expect([...page.items]).toEqual(items);
      expect(page.nextPage).toBe("p1");
      expect(seen).toEqual(["p1"]);
    } finally {
      await client.close();
    }
  });

  test("a last page (null first) engages the fast path and reads nothing ahead", async () => {
    api = await startHostileApi(pagedHandler([{ items, next: null }]));
    const client = clientFor(api.url);
    try {
      const seen: string[] = [];
      const page = await client.listApiCalls({ limit: 2, onNextPageSeen: (token) => seen.push(token) });
      expect(itemsText(page)).toBe(JSON.stringify(items));
      expect(page.nextPage).toBeNull();
      expect(seen).toEqual([]);
    } finally {
      await client.close();
    }
  });
});

describe("a head too long to watch", () => {
  test("a token-first body trickled in small chunks with a 10 KB token still reads the token ahead, once whole", async () => {
    const token = "t".repeat(10_000);
    const items = [validCall(1), validCall(2)];
    api = await startHostileApi(async (request, res) => {
      if (request.query.get("page_token") !== null) {
        sendJson(res, 200, pageBody([], null));
        return;
      }
      const body = Buffer.from(pageBody(items, token));
      res.writeHead(200, { "content-type": "application/json", "content-length": body.length });
      for (let at = 0; at < body.length; at += 500) {
        res.write(body.subarray(at, at + 500));
        await sleep(1);
      }
      res.end();
    });
    const client = clientFor(api.url);
    try {
      const seen: string[] = [];
      const page = await client.listApiCalls({ limit: 2, onNextPageSeen: (next) => seen.push(next) });
      expect(seen).toEqual([token]);
      expect(page.nextPage).toBe(token);
      expect(itemsText(page)).toBe(JSON.stringify(items));
    } finally {
      await client.close();
    }
  });
});

/**
 * Serves page 1 in two parts: its head (the token and the start of the first item), then, only once
 * the request for page 2 has arrived (or after a bound, so a broken read-ahead fails instead of
 * hanging), the rest of the body.
 */
function splitFirstPage(first: readonly unknown[], second: readonly unknown[]) {
  let firstBodyDone = false;
  let secondArrivedEarly: boolean | undefined;
  let releaseFirst: () => void = () => undefined;
  const secondArrived = new Promise<void>((resolve) => {
    releaseFirst = resolve;
  });
  const handler = async (request: { query: URLSearchParams; path: string }, res: ServerResponse) => {
    if (request.path !== "/user/api-calls") {
      sendJson(res, 404, errorBody(404, "not found"));
      return;
    }
    const token = request.query.get("page_token");
    if (token === null) {
      const body = Buffer.from(pageBody(first, "p1"));
      const cut = body.indexOf('"user_id"');
      res.writeHead(200, { "content-type": "application/json", "content-length": body.length });
      res.write(body.subarray(0, cut));
      await Promise.race([secondArrived, sleep(5_000)]);
      firstBodyDone = true;
      res.end(body.subarray(cut));
      return;
    }
    if (token === "p1") {
      secondArrivedEarly ??= !firstBodyDone;
      releaseFirst();
      sendJson(res, 200, pageBody(second, "p2"));
      return;
    }
    sendJson(res, 200, pageBody([], null));
  };
  return { handler, secondArrivedEarly: () => secondArrivedEarly };
}

describe("the read-ahead on Dropshot's order", () => {
  test("the next request leaves once the head holds the token, before the body is complete", async () => {
    const first = Array.from({ length: 50 }, (_, k) => validCall(k + 1));
    const second = [validCall(100), validCall(101)];
    const split = splitFirstPage(first, second);
    api = await startHostileApi(split.handler);
    const { db, out, cleanup } = await tempWorkspace();
    try {
      const { summary, exitCode } = await exportOnce({ baseUrl: api.url, token: "t", flags: { db, out } });
      expect(exitCode, JSON.stringify(summary)).toBe(0);
      expect(split.secondArrivedEarly()).toBe(true);
      expect(await queryDb(db, "SELECT count(*)::INTEGER AS n FROM api_calls")).toEqual([{ n: 52 }]);
      const listings = api.requests.filter((r) => r.path === "/user/api-calls");
      expect(listings.map((r) => r.query.get("page_token"))).toEqual([null, "p1", "p2"]);
    } finally {
      await cleanup();
    }
  });
});

/** The items' bytes a page kept as the server sent them, joined as one array. */
function itemsText(page: RawApiCallsPage): string {
  const parts: string[] = [];
  for (let i = 0; i < page.items.length; i++) parts.push(page.items.bytesOf(i)?.toString() ?? "?");
  return `[${parts.join(",")}]`;
}
