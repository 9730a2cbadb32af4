import type { RunningSimulator } from "../../src/sim/index.js";

/**
 * A UTC time as chrono writes it (SecondsFormat::AutoSi): no fraction for a whole second, 3 digits
 * for a whole millisecond, else 6 (9 for nanoseconds, which a microsecond clock never has).
 */
export const CHRONO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.(?!000Z)\d{3}|\.\d{3}(?!000Z)\d{3})?Z$/;

/** Microseconds since the epoch of a UTC time with 0 to 6 fraction digits. */
export function micros(timestamp: unknown): number {
  const text = String(timestamp);
  const fraction = text.length > 20 ? text.slice(20, -1) : "";
  return Date.parse(`${text.slice(0, 19)}Z`) * 1000 + Number(fraction.padEnd(6, "0"));
}

export interface ApiResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
}

export interface Page {
  items: Array<Record<string, unknown> & { id: string; created_at: string }>;
  next_page: string | null;
}

export interface ErrorBody {
  message: string;
  request_id: string;
  error_code?: string;
}

/** GET `path` on the simulator with a bearer token (or none) and parse the JSON body. */
export async function get<T = unknown>(
  sim: RunningSimulator,
  path: string,
  token?: string,
): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = token === undefined ? {} : { authorization: `Bearer ${token}` };
  const response = await fetch(`${sim.url}${path}`, { headers });
  return { status: response.status, headers: response.headers, body: (await response.json()) as T };
}

export async function listPage(sim: RunningSimulator, token: string, query: string): Promise<Page> {
  const response = await get<Page>(sim, `/user/api-calls?${query}`, token);
  if (response.status !== 200)
    throw new Error(`listing failed: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body;
}

/**
 * Scans to the end the way a client of Dropshot's paging must: follow next_page until a page with no
 * items and next_page null. Returns every item and the number of requests spent.
 */
export async function scan(
  sim: RunningSimulator,
  token: string,
  options: { limit: number; order?: "created_at_ascending" | "created_at_descending"; startToken?: string },
): Promise<{ items: Page["items"]; requests: number; lastToken: string | null }> {
  const items: Page["items"] = [];
  let requests = 0;
  let pageToken: string | null = options.startToken ?? null;
  let lastToken: string | null = pageToken;
  for (;;) {
    const query =
      pageToken === null
        ? `limit=${options.limit}&sort_by=${options.order ?? "created_at_ascending"}`
        : `limit=${options.limit}&page_token=${encodeURIComponent(pageToken)}`;
    const page = await listPage(sim, token, query);
    requests++;
    items.push(...page.items);
    if (page.next_page === null) {
      if (page.items.length !== 0) throw new Error("a non-empty page without next_page");
      return { items, requests, lastToken };
    }
    pageToken = page.next_page;
    lastToken = page.next_page;
  }
}

/** (created_at, id) comparison, the API's sort key. created_at strings have a fixed width. */
export function compareKey(
  a: { created_at: string; id: string },
  b: { created_at: string; id: string },
): number {
  if (a.created_at !== b.created_at) return a.created_at < b.created_at ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The value, or a thrown error naming what was missing (instead of a non-null assertion). */
export function must<T>(value: T | null | undefined, what = "value"): T {
  if (value === null || value === undefined) throw new Error(`expected a ${what}`);
  return value;
}
