/**
 * The bytes of a page's `items` array exactly as the server sent them, when the body has the
 * compact shape Dropshot writes: `{"items":[...],"next_page":<token or null>}`, keys in that order,
 * no whitespace between them. Otherwise undefined, and the caller re-serialises the parsed items.
 *
 * Why this is exact (the body already parsed as JSON into `body`): the body's keys are exactly
 * `items` then `next_page`; the bytes start with `{"items":[` and end with `],"next_page":`, the
 * canonical JSON of the parsed token, and `}`. The final `}` closes the top-level object, so the
 * token text before it is the `next_page` value, the key before that is the top-level key, and the
 * `]` before its comma closes the `items` array. A `,"` inside a JSON string is impossible (a quote
 * in a string is escaped), so nothing in an item can fake that tail.
 */
export function itemsArrayJson(bytes: Buffer, body: unknown): Buffer | undefined {
  if (body === null || typeof body !== "object") return undefined;
  if (bytes.length < ITEMS_PREFIX.length || !bytes.subarray(0, ITEMS_PREFIX.length).equals(ITEMS_PREFIX)) {
    return undefined;
  }
  const keys = Object.keys(body);
  if (keys.length !== 2 || keys[0] !== "items" || keys[1] !== "next_page") return undefined;
  const next = (body as { next_page: unknown }).next_page;
  if (next !== null && typeof next !== "string") return undefined;
  const tail = Buffer.from(`],"next_page":${JSON.stringify(next)}}`);
  if (bytes.length < ITEMS_PREFIX.length + tail.length - 1) return undefined;
  if (!bytes.subarray(bytes.length - tail.length).equals(tail)) return undefined;
  // From the items' opening bracket to their closing one, both included.
  return bytes.subarray(ITEMS_PREFIX.length - 1, bytes.length - tail.length + 1);
}

const ITEMS_PREFIX = Buffer.from('{"items":[');

/**
 * The next_page token of a compact page with at least one item, read from the body's last bytes
 * before the body is parsed: `...],"next_page":"<token>"}`. Undefined for an empty page, a last page
 * (null), or any other shape. A guess that lets the next request leave ~4 ms earlier (the parse of a
 * 1000-item page): the parsed body decides, and a request sent on a wrong guess is dropped.
 */
export function peekNextPage(bytes: Buffer): string | undefined {
  if (bytes.length <= EMPTY_ITEMS.length || bytes.subarray(0, EMPTY_ITEMS.length).equals(EMPTY_ITEMS)) {
    return undefined;
  }
  if (
    !bytes.subarray(0, ITEMS_PREFIX.length).equals(ITEMS_PREFIX) ||
    bytes[bytes.length - 1] !== CLOSE_BRACE
  ) {
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

const EMPTY_ITEMS = Buffer.from('{"items":[]');
const NEXT_PAGE_KEY = Buffer.from('],"next_page":');
const CLOSE_BRACE = "}".charCodeAt(0);
