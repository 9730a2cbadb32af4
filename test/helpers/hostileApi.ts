import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach } from "vitest";
import { tempWorkspace } from "./exportHarness.js";

/**
 * A hostile stand-in for api.zoo.dev: every response is scripted by the test, so it can send what the
 * simulator never would (broken pagination, poison records, trickled bodies, huge bodies, escape codes).
 * It speaks plain HTTP on loopback, port 0.
 */
export interface HostileRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage["headers"];
  /** 1 for the first request this server received. */
  n: number;
}

export type HostileHandler = (request: HostileRequest, res: ServerResponse) => void | Promise<void>;

export interface HostileApi {
  url: string;
  requests: HostileRequest[];
  close(): Promise<void>;
}

/** The listings of who holds the tokens, which every export reads after the calls. */
const SPENDER_LISTING = /^(?:\/[^/]+)*\/(?:user\/api-tokens|org\/service-accounts|org\/members)$/;

/**
 * A stand-in API for one test. Unless `ownsSpenderListings`, it answers the token and member
 * listings (GET /user/api-tokens, /org/service-accounts, /org/members) itself with an empty page,
 * unrecorded: each test's handler then sees only the calls and operations it is about.
 */
export async function startHostileApi(
  handler: HostileHandler,
  options: { ownsSpenderListings?: boolean } = {},
): Promise<HostileApi> {
  const requests: HostileRequest[] = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    if (options.ownsSpenderListings !== true && SPENDER_LISTING.test(url.pathname)) {
      // Without an x-api-call-id: no test's own-call bookkeeping sees this answer.
      res.writeHead(200, { "content-type": "application/json" });
      res.end(pageBody([], null));
      return;
    }
    const request: HostileRequest = {
      method: req.method ?? "GET",
      path: url.pathname,
      query: url.searchParams,
      headers: req.headers,
      n: requests.length + 1,
    };
    requests.push(request);
    Promise.resolve(handler(request, res)).catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Sends a JSON reply with the headers the real API sends (x-request-id; x-api-call-id on success). */
export function sendJson(res: ServerResponse, status: number, body: string | object): void {
  const text = typeof body === "string" ? body : JSON.stringify(body);
  const headers: Record<string, string | number> = {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
    "x-request-id": randomUUID(),
  };
  if (status < 400) headers["x-api-call-id"] = randomUUID();
  res.writeHead(status, headers);
  res.end(text);
}

/** A page as Dropshot writes it: `next_page` first, then `items`. */
export function pageBody(items: readonly unknown[], nextPage: string | null): string {
  return `{"next_page":${JSON.stringify(nextPage)},"items":${JSON.stringify(items)}}`;
}

export function errorBody(status: number, message: string): object {
  return { request_id: randomUUID(), message, ...(status >= 500 ? { error_code: "Internal" } : {}) };
}

/** The user every hostile record belongs to (one database holds one user's history). */
export const HOSTILE_USER_ID = "0a1b2c3d-0000-4000-8000-000000000001";

/** A spec-valid ApiCallWithPrice created `minute` minutes after 2026-10-01T00:00:00Z, with overrides. */
export function validCall(minute: number, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const created = new Date(Date.UTC(2026, 9, 1) + minute * 60_000).toISOString();
  const id = `0a1b2c3d-${String(minute).padStart(4, "0").slice(-4)}-4000-8000-${String(minute).padStart(12, "0").slice(-12)}`;
  return {
    id,
    user_id: HOSTILE_USER_ID,
    token: "0a1b2c3d-0000-4000-8000-0000000000aa",
    method: "POST",
    endpoint: "/file/volume",
    status_code: 200,
    created_at: created,
    started_at: created,
    completed_at: created,
    updated_at: created,
    duration: 1_500_000_000,
    minutes: 1,
    seconds: 2,
    price: 0.02,
    user_agent: "hostile-test/1",
    ...overrides,
  };
}

/** A spec-valid FileVolume operation body for the call `validCall(minute)`, with overrides. */
export function validOperation(
  minute: number,
  overrides: Record<string, unknown> = {},
): Record<string, unknown> {
  const call = validCall(minute);
  return {
    id: call.id,
    type: "file_volume",
    status: "completed",
    user_id: HOSTILE_USER_ID,
    created_at: call.created_at,
    updated_at: call.created_at,
    started_at: call.created_at,
    completed_at: call.created_at,
    src_format: "obj",
    output_unit: "m3",
    volume: 1.5,
    ...overrides,
  };
}

/**
 * Serves GET /user/api-calls from a list of pages: the first request (no page_token) gets pages[0],
 * `page_token=p<i>` gets pages[i]. A page's `next` is the token it hands out (default: the next page's,
 * and null after the last). Any other path answers 404, as operations the stand-in does not know.
 */
export function pagedHandler(
  pages: readonly { items: readonly unknown[]; next?: string | null }[],
): HostileHandler {
  return (request, res) => {
    if (request.path !== "/user/api-calls") {
      sendJson(res, 404, errorBody(404, "not found"));
      return;
    }
    const token = request.query.get("page_token");
    const index = token === null ? 0 : Number(token.replace(/^p/, ""));
    const page = pages[index];
    if (page === undefined) {
      sendJson(res, 400, errorBody(400, "unable to parse query string: failed to parse pagination token"));
      return;
    }
    const next = page.next !== undefined ? page.next : index + 1 < pages.length ? `p${index + 1}` : null;
    sendJson(res, 200, pageBody(page.items, next));
  };
}

/**
 * Per-test resources for a test file (call it at the file's top level): `hostile` starts a stand-in,
 * `workspace` makes a temp dir, `onCleanup` adds any other step; all are undone after each test.
 */
export function resourcesPerTest() {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  return {
    onCleanup: (cleanup: () => Promise<void>) => cleanups.push(cleanup),
    async hostile(handler: HostileHandler): Promise<HostileApi> {
      const api = await startHostileApi(handler);
      cleanups.push(() => api.close());
      return api;
    },
    async workspace() {
      const w = await tempWorkspace();
      cleanups.push(w.cleanup);
      return w;
    },
  };
}
