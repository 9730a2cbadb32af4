import type { Dispatcher } from "undici";
import type { BodyFilter } from "./operationBody.js";

export type BodyRead = { ok: true; bytes: Buffer } | { ok: false; seenBytes: number; declared: boolean };

/**
 * Reads a response body whole, refusing it once it passes `maxBytes`: a body is held in memory and
 * decoded as one string, so an unbounded one ends in an out-of-memory crash or V8's string length
 * limit instead of a message. A declared content-length above the cap is refused before reading.
 * With a `filter`, only what it keeps is held, and the cap applies to that: the body on the wire
 * may be larger.
 */
export async function readBodyCapped(
  response: Dispatcher.ResponseData,
  maxBytes: number,
  filter?: BodyFilter,
): Promise<BodyRead> {
  const declared = Number(response.headers["content-length"]);
  if (filter === undefined && Number.isFinite(declared) && declared > maxBytes) {
    response.body.destroy();
    return { ok: false, seenBytes: declared, declared: true };
  }
  const chunks: Buffer[] = [];
  let total = 0;
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
  }
  if (filter !== undefined && !keep(filter.end())) return { ok: false, seenBytes: total, declared: false };
  let bytes = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, total);
  // As undici's text() does: UTF-8, without a byte order mark.
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) bytes = bytes.subarray(3);
  return { ok: true, bytes };
}
