import type { SortMode } from "./keysetPage.js";
import { UUID_PATTERN } from "./random.js";
import { parseMicros } from "./time.js";

/**
 * Dropshot page tokens (the API pages with Dropshot's keyset pagination): URL-safe base64
 * with `=` padding of `{"v":"v1","page_start":{...}}`, where page_start holds the sort mode and the
 * (created_at, id) of the last item served. Stateless: any token ever issued keeps working.
 */

/** Dropshot's MAX_TOKEN_LENGTH: longer tokens are refused before decoding. */
const MAX_TOKEN_LENGTH = 512;
const SORT_MODES: readonly string[] = ["created_at_ascending", "created_at_descending"];
const BASE64URL_CHAR = /[A-Za-z0-9_-]/;

export interface DecodedPageToken {
  sortBy: SortMode;
  createdUs: number;
  id: string;
}

export type PageTokenResult = { ok: true; token: DecodedPageToken } | { ok: false; reason: string };

export function encodePageToken(sortBy: SortMode, createdAt: string, id: string): string {
  const json = JSON.stringify({ v: "v1", page_start: { sort_by: sortBy, created_at: createdAt, id } });
  return Buffer.from(json).toString("base64").replaceAll("+", "-").replaceAll("/", "_");
}

/**
 * Decodes a token. Reasons follow Dropshot's texts: "too large", the base64 decoder's own message,
 * and "corrupted token" for anything that is valid base64 but not a token we issued the shape of.
 */
export function decodePageToken(text: string): PageTokenResult {
  if (text.length > MAX_TOKEN_LENGTH) return { ok: false, reason: "too large" };
  const base64Problem = checkBase64(text);
  if (base64Problem !== null) return { ok: false, reason: base64Problem };
  const body = text.replace(/=+$/, "").replaceAll("-", "+").replaceAll("_", "/");
  const bytes = Buffer.from(body, "base64");
  // Non-zero trailing bits decode leniently in Node; the base64 crate Dropshot uses refuses them.
  if (bytes.toString("base64").replace(/=+$/, "") !== body) {
    return {
      ok: false,
      reason: `Invalid last symbol ${text.replace(/=+$/, "").charCodeAt(body.length - 1)}, offset ${body.length - 1}.`,
    };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(bytes.toString("utf8"));
  } catch {
    return { ok: false, reason: "corrupted token" };
  }
  const token = tokenShape(parsed);
  return token === null ? { ok: false, reason: "corrupted token" } : { ok: true, token };
}

/** Canonical padded URL-safe base64, as the base64 crate's URL_SAFE engine decodes it. */
function checkBase64(text: string): string | null {
  const body = text.replace(/=+$/, "");
  for (let k = 0; k < body.length; k++) {
    const ch = body[k] ?? "";
    if (!BASE64URL_CHAR.test(ch)) return `Invalid byte ${body.charCodeAt(k)}, offset ${k}.`;
  }
  if (body.length % 4 === 1) return "Encoded text cannot have a 6-bit remainder.";
  const padding = text.length - body.length;
  if (padding !== (4 - (body.length % 4)) % 4) return "Invalid padding";
  return null;
}

function tokenShape(value: unknown): DecodedPageToken | null {
  if (!isRecord(value) || value.v !== "v1" || !isRecord(value.page_start)) return null;
  const { sort_by: sortBy, created_at: createdAt, id } = value.page_start;
  if (typeof sortBy !== "string" || !SORT_MODES.includes(sortBy)) return null;
  if (typeof createdAt !== "string" || typeof id !== "string" || !UUID_PATTERN.test(id)) return null;
  const createdUs = parseMicros(createdAt);
  if (createdUs === null) return null;
  return { sortBy: sortBy as SortMode, createdUs, id: id.toLowerCase() };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
