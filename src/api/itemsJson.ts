/**
 * The bytes of a page's `items` array exactly as the server sent them, when the body is compact (no
 * whitespace outside strings at the top level) with its two keys in either order: Dropshot's own
 * `{"next_page":<token or null>,"items":[...]}` (it serialises `ResultsPage { next_page, items }` in
 * declaration order) or `{"items":[...],"next_page":<token or null>}`. Otherwise undefined, and the
 * caller re-serialises the parsed items.
 *
 * Why this is exact (the body already parsed as JSON into `body`, with exactly these two keys in
 * this order): the bytes hold, around the array, the canonical JSON of the parsed token and nothing
 * else. Token first: they start with `{"next_page":<token>,"items":[` and end with `]}`; the final
 * `}` closes the top-level object, whose last value is `items`, so the `]` before it closes that
 * array. Items first: they start with `{"items":[` and end with `],"next_page":<token>}`; the
 * final `}` closes the top-level object, so the token text before it is the `next_page` value, the
 * key before that is the top-level key, and the `]` before its comma closes `items`. A `,"` inside
 * a JSON string is impossible (a quote in a string is escaped), so nothing in an item can fake
 * either frame.
 */
export function itemsArrayJson(bytes: Buffer, body: unknown): Buffer | undefined {
  if (body === null || typeof body !== "object") return undefined;
  const keys = Object.keys(body);
  if (keys.length !== 2) return undefined;
  const next = (body as { next_page: unknown }).next_page;
  if (next !== null && typeof next !== "string") return undefined;
  if (keys[0] === "next_page" && keys[1] === "items") return itemsAfterToken(bytes, next);
  if (keys[0] === "items" && keys[1] === "next_page") return itemsBeforeToken(bytes, next);
  return undefined;
}

function itemsAfterToken(bytes: Buffer, next: string | null): Buffer | undefined {
  const head = Buffer.from(`{"next_page":${JSON.stringify(next)},"items":[`);
  if (bytes.length < head.length + 2 || !bytes.subarray(0, head.length).equals(head)) return undefined;
  if (bytes[bytes.length - 2] !== CLOSE_BRACKET || bytes[bytes.length - 1] !== CLOSE_BRACE) return undefined;
  // From the items' opening bracket to their closing one, both included.
  return bytes.subarray(head.length - 1, bytes.length - 1);
}

function itemsBeforeToken(bytes: Buffer, next: string | null): Buffer | undefined {
  if (bytes.length < ITEMS_FIRST.length || !bytes.subarray(0, ITEMS_FIRST.length).equals(ITEMS_FIRST)) {
    return undefined;
  }
  const tail = Buffer.from(`],"next_page":${JSON.stringify(next)}}`);
  if (bytes.length < ITEMS_FIRST.length + tail.length - 1) return undefined;
  if (!bytes.subarray(bytes.length - tail.length).equals(tail)) return undefined;
  return bytes.subarray(ITEMS_FIRST.length - 1, bytes.length - tail.length + 1);
}

/** What the first bytes of a body tell about its next page, as they arrive. */
export type HeadPeek = { token: string } | "more" | "none";

/**
 * The next_page token of a compact token-first page with at least one item, read from the first
 * bytes of its body while the rest is still on the wire: `{"next_page":"<token>","items":[{`.
 * "more" while the bytes so far could still be that; "none" for a last page (null), an empty page
 * or any other shape. A guess that lets the next request leave before this body is even complete:
 * the parsed body decides, and a request sent on a wrong guess is dropped.
 */
export function peekNextPageAtHead(head: Buffer): HeadPeek {
  const start = startsWithPart(head, 0, NEXT_FIRST);
  if (start !== "yes") return start;
  const open = NEXT_FIRST.length;
  if (head.length <= open) return "more";
  if (head[open] !== QUOTE) return "none";
  // The string literal ends at the first quote not escaped by a backslash.
  let close = open + 1;
  while (close < head.length && head[close] !== QUOTE) close += head[close] === BACKSLASH ? 2 : 1;
  if (close >= head.length) return "more";
  const items = startsWithPart(head, close + 1, ITEMS_AFTER_TOKEN);
  if (items !== "yes") return items;
  const first = close + 1 + ITEMS_AFTER_TOKEN.length;
  if (head.length <= first) return "more";
  // An empty page ends the scan (or is an anomaly): nothing worth sending ahead for.
  if (head[first] === CLOSE_BRACKET) return "none";
  try {
    const token: unknown = JSON.parse(head.toString("utf8", open, close + 1));
    return typeof token === "string" ? { token } : "none";
  } catch {
    return "none";
  }
}

/** Whether `bytes` from `at` begins with `part`: "more" when it is a match so far but too short. */
function startsWithPart(bytes: Buffer, at: number, part: Buffer): "yes" | "more" | "none" {
  const available = Math.min(part.length, bytes.length - at);
  for (let k = 0; k < available; k++) {
    if (bytes[at + k] !== part[k]) return "none";
  }
  return available < part.length ? "more" : "yes";
}

/**
 * The next_page token of a compact items-first page with at least one item, read from the body's
 * last bytes before the body is parsed: `...],"next_page":"<token>"}`. Undefined for an empty page,
 * a last page (null), or any other shape. A guess that lets the next request leave before the
 * parse of this page: the parsed body decides, and a request sent on a wrong guess is dropped.
 */
export function peekNextPageAtTail(bytes: Buffer): string | undefined {
  if (bytes.length <= EMPTY_ITEMS.length || bytes.subarray(0, EMPTY_ITEMS.length).equals(EMPTY_ITEMS)) {
    return undefined;
  }
  if (!bytes.subarray(0, ITEMS_FIRST.length).equals(ITEMS_FIRST) || bytes[bytes.length - 1] !== CLOSE_BRACE) {
    return undefined;
  }
  const at = bytes.lastIndexOf(NEXT_PAGE_KEY);
  if (at === -1) return undefined;
  try {
    const token: unknown = JSON.parse(bytes.toString("utf8", at + NEXT_PAGE_KEY.length, bytes.length - 1));
    return typeof token === "string" ? token : undefined;
  } catch {
    return undefined;
  }
}

/** The next_page token of a whole compact body with at least one item, in either key order. */
export function peekNextPage(bytes: Buffer): string | undefined {
  const head = peekNextPageAtHead(bytes);
  return typeof head === "object" ? head.token : peekNextPageAtTail(bytes);
}

const ITEMS_FIRST = Buffer.from('{"items":[');
const NEXT_FIRST = Buffer.from('{"next_page":');
const ITEMS_AFTER_TOKEN = Buffer.from(',"items":[');
const EMPTY_ITEMS = Buffer.from('{"items":[]');
const NEXT_PAGE_KEY = Buffer.from('],"next_page":');
const CLOSE_BRACE = "}".charCodeAt(0);
const CLOSE_BRACKET = "]".charCodeAt(0);
const QUOTE = '"'.charCodeAt(0);
const BACKSLASH = "\\".charCodeAt(0);
