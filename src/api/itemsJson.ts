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
