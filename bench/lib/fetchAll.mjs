import { pathToFileURL } from "node:url";
import { Agent } from "undici";

/** The export's default page size (src/config); the bench passes another with --limit. */
export const LIMIT = 1000;

function pageUrl(base, token, limit = LIMIT) {
  const query = new URLSearchParams({ limit: String(limit), sort_by: "created_at_ascending" });
  if (token !== null) query.set("page_token", token);
  return `${base}/user/api-calls?${query}`;
}

/**
 * next_page without parsing the whole body: the simulator, like Dropshot, writes it first
 * (`{"next_page":<token>,"items":[...]}`); a body in the other order has it at its tail. Falls back
 * to a full parse when neither end looks like that.
 */
function nextPageOf(text) {
  if (text.startsWith(TOKEN_FIRST)) {
    // A JSON string cannot hold `,"items":` (its quote would be escaped): this is the key's comma.
    const end = text.indexOf(',"items":', TOKEN_FIRST.length);
    if (end !== -1) {
      try {
        return JSON.parse(text.slice(TOKEN_FIRST.length, end));
      } catch {}
    }
  }
  const at = text.lastIndexOf('"next_page":');
  const end = text.lastIndexOf("}");
  if (at !== -1 && end > at) {
    try {
      return JSON.parse(text.slice(at + '"next_page":'.length, end));
    } catch {}
  }
  return JSON.parse(text).next_page ?? null;
}

const TOKEN_FIRST = '{"next_page":';

async function getPage(dispatcher, base, apiToken, pageToken, limit = LIMIT) {
  const response = await dispatcher.request({
    origin: new URL(base).origin,
    path: pageUrl(base, pageToken, limit).slice(new URL(base).origin.length),
    method: "GET",
    headers: { authorization: `Bearer ${apiToken}`, accept: "application/json" },
  });
  const text = await response.body.text();
  if (response.statusCode !== 200) throw new Error(`GET /user/api-calls: ${response.statusCode} ${text}`);
  return text;
}

/**
 * The fetch ceiling: a bare keep-alive loop over every page (ascending, following next_page until
 * it is null), bodies read and discarded. Nothing else a fetcher could skip.
 */
export async function fetchCeiling({ url, token }, limit = LIMIT) {
  const dispatcher = new Agent({ keepAliveTimeout: 30_000 });
  const started = performance.now();
  let pageToken = null;
  let requests = 0;
  let bytes = 0;
  try {
    for (;;) {
      const text = await getPage(dispatcher, url, token, pageToken, limit);
      requests += 1;
      bytes += text.length;
      pageToken = nextPageOf(text);
      if (pageToken === null) break;
    }
  } finally {
    await dispatcher.close();
  }
  return { seconds: (performance.now() - started) / 1000, requests, bodyBytes: bytes };
}

/**
 * Untimed: the records and the bytes of the same pages as NDJSON (one item per line, as
 * JSON.stringify prints it), the yardstick of the Parquet dataset's size.
 */
export async function ndjsonSize({ url, token }, limit = LIMIT) {
  const dispatcher = new Agent({ keepAliveTimeout: 30_000 });
  let pageToken = null;
  let records = 0;
  let bytes = 0;
  try {
    for (;;) {
      const page = JSON.parse(await getPage(dispatcher, url, token, pageToken, limit));
      for (const item of page.items) bytes += Buffer.byteLength(JSON.stringify(item)) + 1;
      records += page.items.length;
      pageToken = page.next_page ?? null;
      if (pageToken === null) break;
    }
  } finally {
    await dispatcher.close();
  }
  return { records, bytes };
}

/**
 * As a process (`node bench/lib/fetchAll.mjs URL [LIMIT]`, the token in BENCH_TOKEN): the ceiling
 * timed like the export, Node's start and module loading included. Prints one JSON line.
 */
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [url, limit] = process.argv.slice(2);
  const figures = await fetchCeiling({ url, token: process.env.BENCH_TOKEN }, Number(limit ?? LIMIT));
  process.stdout.write(`${JSON.stringify(figures)}\n`);
}
