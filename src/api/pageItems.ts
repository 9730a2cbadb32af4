import { exactItem } from "./exactJson.js";

/**
 * A listing page's items. Either parsed with the whole body (any shape JSON allows), or kept as the
 * bytes of each item as the server sent them and parsed one at a time when asked: then no string of
 * the whole page and no parsed copy of all its records exist at once, so the memory a page takes
 * stays near its bytes whatever the page size (the API serves up to 10,000 items a page).
 */
export class PageItems implements Iterable<unknown> {
  private constructor(
    private readonly parsed: readonly unknown[] | undefined,
    private readonly slices: readonly Buffer[] | undefined,
  ) {}

  static parsed(items: readonly unknown[]): PageItems {
    return new PageItems(items, undefined);
  }

  /** Items kept as their bytes (splitCompactPage): each is parsed when asked. */
  static raw(slices: readonly Buffer[]): PageItems {
    return new PageItems(undefined, slices);
  }

  get length(): number {
    return (this.parsed ?? this.slices ?? []).length;
  }

  /**
   * Item `index`, parsed now for a raw page (every call parses again). An integer duration beyond
   * 2^53 comes out as a BigInt, as exactItems makes it. A raw item that is not JSON throws a
   * SyntaxError: splitCompactPage checks the frame and the nesting only, JSON.parse the rest.
   */
  at(index: number): unknown {
    if (this.parsed !== undefined) return this.parsed[index];
    const slice = this.slices?.[index];
    if (slice === undefined) return undefined;
    return exactItem(JSON.parse(slice.toString("utf8")), slice);
  }

  /** Item `index` as the server sent it, for a raw page; undefined for a parsed one. */
  bytesOf(index: number): Buffer | undefined {
    return this.slices?.[index];
  }

  *[Symbol.iterator](): Iterator<unknown> {
    for (let i = 0; i < this.length; i++) yield this.at(i);
  }
}

/** A compact page cut into its items' bytes: what splitCompactPage finds. */
export class SplitPage {
  constructor(
    readonly nextPage: string | null,
    readonly items: Buffer[],
  ) {}
}

/**
 * A compact listing body cut into its items' bytes (subarrays of `bytes`, not copies) and its
 * next_page token, without parsing the items: Dropshot's `{"next_page":<token or null>,"items":[...]}`
 * or `{"items":[...],"next_page":<token or null>}`, with no whitespace in that frame. Undefined
 * for any other shape, an unbalanced body (cut short) or an empty item, and the caller parses the
 * body whole, as JSON.parse judges it.
 *
 * What it checks: the frame byte for byte, the token with JSON.parse, and each item's extent by its
 * brackets and strings (a bracket inside a string is text; a quote after a backslash is part of the
 * string). An item whose bytes are not JSON is found when it is parsed (PageItems.at).
 */
export function splitCompactPage(bytes: Buffer): SplitPage | undefined {
  if (startsWith(bytes, 0, NEXT_FIRST)) return tokenFirst(bytes);
  if (startsWith(bytes, 0, ITEMS_FIRST)) return itemsFirst(bytes);
  return undefined;
}

function tokenFirst(bytes: Buffer): SplitPage | undefined {
  let at = NEXT_FIRST.length;
  let nextPage: string | null;
  if (startsWith(bytes, at, NULL)) {
    nextPage = null;
    at += NULL.length;
  } else {
    if (bytes[at] !== QUOTE) return undefined;
    const end = stringEnd(bytes, at);
    if (end === undefined) return undefined;
    const token = parseOrUndefined(bytes.toString("utf8", at, end));
    if (typeof token !== "string") return undefined;
    nextPage = token;
    at = end;
  }
  if (!startsWith(bytes, at, ITEMS_AFTER_TOKEN)) return undefined;
  const split = splitItems(bytes, at + ITEMS_AFTER_TOKEN.length);
  if (split === undefined) return undefined;
  // The items' closing bracket, then the body's closing brace, and nothing after.
  if (split.end + 1 !== bytes.length - 1 || bytes[bytes.length - 1] !== CLOSE_BRACE) return undefined;
  return new SplitPage(nextPage, split.items);
}

function itemsFirst(bytes: Buffer): SplitPage | undefined {
  const split = splitItems(bytes, ITEMS_FIRST.length);
  if (split === undefined) return undefined;
  const keyAt = split.end + 1;
  if (!startsWith(bytes, keyAt, NEXT_AFTER_ITEMS) || bytes[bytes.length - 1] !== CLOSE_BRACE)
    return undefined;
  const token = parseOrUndefined(bytes.toString("utf8", keyAt + NEXT_AFTER_ITEMS.length, bytes.length - 1));
  if (token !== null && typeof token !== "string") return undefined;
  return new SplitPage(token, split.items);
}

/**
 * The items of the array whose first item starts at `start` (just after its `[`): each item's
 * bytes, and where the array's `]` is. Undefined when the array does not close inside `bytes`, an
 * item is empty, or a bracket closes what it did not open.
 */
function splitItems(bytes: Buffer, start: number): { items: Buffer[]; end: number } | undefined {
  const items: Buffer[] = [];
  if (bytes[start] === CLOSE_BRACKET) return { items, end: start };
  let itemStart = start;
  let depth = 0;
  const length = bytes.length;
  for (let at = start; at < length; at++) {
    const byte = bytes[at];
    if (byte === QUOTE) {
      const end = stringEnd(bytes, at);
      if (end === undefined) return undefined;
      at = end - 1;
    } else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) {
      depth += 1;
    } else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) {
      if (depth > 0) {
        depth -= 1;
        continue;
      }
      if (byte !== CLOSE_BRACKET || at === itemStart) return undefined;
      items.push(bytes.subarray(itemStart, at));
      return { items, end: at };
    } else if (byte === COMMA && depth === 0) {
      if (at === itemStart) return undefined;
      items.push(bytes.subarray(itemStart, at));
      itemStart = at + 1;
    }
  }
  return undefined;
}

/** Just past the closing quote of the string whose opening quote is at `at`; undefined if unclosed. */
function stringEnd(bytes: Buffer, at: number): number | undefined {
  const length = bytes.length;
  for (let k = at + 1; k < length; k++) {
    const byte = bytes[k];
    if (byte === BACKSLASH) k += 1;
    else if (byte === QUOTE) return k + 1;
  }
  return undefined;
}

function startsWith(bytes: Buffer, at: number, part: Buffer): boolean {
  if (bytes.length - at < part.length) return false;
  for (let k = 0; k < part.length; k++) if (bytes[at + k] !== part[k]) return false;
  return true;
}

function parseOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

const NEXT_FIRST = Buffer.from('{"next_page":');
const ITEMS_FIRST = Buffer.from('{"items":[');
const ITEMS_AFTER_TOKEN = Buffer.from(',"items":[');
const NEXT_AFTER_ITEMS = Buffer.from(',"next_page":');
const NULL = Buffer.from("null");
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
