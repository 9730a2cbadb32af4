import type { Dispatcher } from "undici";
import type { BodyFilter } from "./operationBody.js";

export type BodyRead = { ok: true; bytes: Buffer } | { ok: false; seenBytes: number; declared: boolean };

/**
 * How much of a body's start `onHead` is shown at most: a page's head with its token is a few hundred
 * bytes, and the head is copied again for each chunk while it is watched.
 */
export const HEAD_LIMIT_BYTES = 4096;

/**
 * Reads a response body whole, refusing it once it passes `maxBytes`: a body is held in memory and
 * decoded as one string, so an unbounded one ends in an out-of-memory crash or V8's string length
 * limit instead of a message. A declared content-length above the cap is refused before reading.
 * `onHead` is shown the bytes received so far as they arrive, while the rest is still on the wire,
 * until it returns true or they pass HEAD_LIMIT_BYTES (only without a filter: a filter's output is
 * not the body's head). With a `filter`, only what it keeps is held, and the cap applies to that:
 * the body on the wire may be larger.
 */
export async function readBodyCapped(
  response: Dispatcher.ResponseData,
  maxBytes: number,
  options: { onHead?: ((head: Buffer) => boolean) | undefined; filter?: BodyFilter | undefined } = {},
): Promise<BodyRead> {
  const { onHead, filter } = options;
  const declared = Number(response.headers["content-length"]);
  if (filter === undefined && Number.isFinite(declared) && declared > maxBytes) {
    response.body.destroy();
    return { ok: false, seenBytes: declared, declared: true };
  }
  const chunks: Buffer[] = [];
  let total = 0;
  let watching = onHead !== undefined && filter === undefined;
  const keep = (parts: Buffer[]): boolean => {
    for (const part of parts) {
      total += part.length;
      if (total > maxBytes) return false;
      chunks.push(part);
    }
    return true;
  };
  for await (const chunk of response.body as AsyncIterable<Buffer>) {
    if (!keep(filter === undefined ? [chunk] : filter.write(chunk))) {
      response.body.destroy();
      return { ok: false, seenBytes: total, declared: false };
    }
    if (watching && onHead !== undefined) {
      const head = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, total);
      if (onHead(head) || total >= HEAD_LIMIT_BYTES) watching = false;
    }
  }
  if (filter !== undefined && !keep(filter.end())) return { ok: false, seenBytes: total, declared: false };
  let bytes = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, total);
  // As undici's text() does: UTF-8, without a byte order mark.
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) bytes = bytes.subarray(3);
  return { ok: true, bytes };
}
