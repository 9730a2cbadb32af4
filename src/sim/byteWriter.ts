import { civilDate, fractionDigits, US_PER_DAY, US_PER_HOUR, US_PER_MINUTE, US_PER_SECOND } from "./time.js";

const HEX_CODES = new Uint8Array(512);
for (let b = 0; b < 256; b++) {
  const text = b.toString(16).padStart(2, "0");
  HEX_CODES[2 * b] = text.charCodeAt(0);
  HEX_CODES[2 * b + 1] = text.charCodeAt(1);
}
const NEEDS_ESCAPE = /[^\x20-\x21\x23-\x5b\x5d-\x7e]/; // anything but printable ASCII minus `"` and `\`
const ZERO = 48;

/**
 * Builds a response body directly as bytes. A page assembled from strings spends most of its time
 * flattening V8 cons-strings and collecting garbage; writing ASCII straight into one buffer avoids
 * both. Everything written here is ASCII unless it goes through jsonString's escape path.
 */
export class ByteWriter {
  #buffer: Buffer;
  #length = 0;
  #day = Number.NaN;
  readonly #datePrefix = new Uint8Array(11); // "YYYY-MM-DDT"

  constructor(initialBytes = 64 * 1024) {
    this.#buffer = Buffer.allocUnsafe(initialBytes);
  }

  #ensure(extra: number): void {
    if (this.#length + extra <= this.#buffer.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.#buffer.length * 2, this.#length + extra));
    this.#buffer.copy(grown, 0, 0, this.#length);
    this.#buffer = grown;
  }

  /** Pre-encoded constant bytes (JSON keys and punctuation). */
  raw(bytes: Uint8Array): void {
    const n = bytes.length;
    this.#ensure(n);
    if (n > 32) {
      this.#buffer.set(bytes, this.#length);
    } else {
      // Short keys: a plain loop beats TypedArray#set's call overhead.
      const buf = this.#buffer;
      const at = this.#length;
      for (let k = 0; k < n; k++) buf[at + k] = bytes[k] ?? 0;
    }
    this.#length += n;
  }

  /** Text known to be printable ASCII with nothing to escape (ids, formats, digits). */
  ascii(text: string): void {
    const n = text.length;
    this.#ensure(n);
    const buf = this.#buffer;
    let at = this.#length;
    for (let k = 0; k < n; k++) buf[at++] = text.charCodeAt(k);
    this.#length = at;
  }

  charCode(code: number): void {
    this.#ensure(1);
    this.#buffer[this.#length++] = code;
  }

  /** A JSON string literal, escaping only when needed. */
  jsonString(text: string): void {
    if (NEEDS_ESCAPE.test(text)) {
      const escaped = JSON.stringify(text);
      this.#ensure(escaped.length * 3);
      this.#length += this.#buffer.write(escaped, this.#length, "utf8");
      return;
    }
    this.#ensure(text.length + 2);
    this.charCode(34);
    this.ascii(text);
    this.charCode(34);
  }

  /** A non-negative integer (exact up to 2^53). */
  int(n: number): void {
    this.ascii(n < 10 ? String.fromCharCode(ZERO + n) : String(n));
  }

  /** An exact decimal from integer millionths: 12300 -> 0.0123, 0 -> 0, 1250000 -> 1.25. */
  microDecimal(micros: number): void {
    const whole = Math.floor(micros / 1_000_000);
    let fraction = micros - whole * 1_000_000;
    this.int(whole);
    if (fraction === 0) return;
    let digits = 6;
    while (fraction % 10 === 0) {
      fraction /= 10;
      digits--;
    }
    this.#ensure(digits + 1);
    const buf = this.#buffer;
    buf[this.#length] = 46; // "."
    for (let k = digits; k >= 1; k--) {
      buf[this.#length + k] = ZERO + (fraction % 10);
      fraction = Math.floor(fraction / 10);
    }
    this.#length += digits + 1;
  }

  /** A UUID from four 32-bit words, as 36 lowercase hex characters with hyphens. */
  uuid(w0: number, w1: number, w2: number, w3: number): void {
    this.#ensure(36);
    const buf = this.#buffer;
    let at = this.#length;
    // Byte k of the 16 (big-endian across the words); hyphens after bytes 4, 6, 8 and 10.
    for (let k = 0; k < 16; k++) {
      const word = k < 4 ? w0 : k < 8 ? w1 : k < 12 ? w2 : w3;
      const b = (word >>> (24 - 8 * (k & 3))) & 0xff;
      buf[at++] = HEX_CODES[2 * b] ?? ZERO;
      buf[at++] = HEX_CODES[2 * b + 1] ?? ZERO;
      if (k === 3 || k === 5 || k === 7 || k === 9) buf[at++] = 45;
    }
    this.#length = at;
  }

  /**
   * RFC 3339 UTC, quoted, with chrono's fraction (see fractionDigits): "2026-08-03T12:34:56.123456Z",
   * "2026-08-03T12:34:56.120Z", "2026-08-03T12:34:56Z".
   */
  timestamp(us: number): void {
    const days = Math.floor(us / US_PER_DAY);
    if (days !== this.#day) {
      this.#day = days;
      this.#datePrefix.set(Buffer.from(civilDate(days), "latin1"));
    }
    let rest = us - days * US_PER_DAY;
    const hour = Math.floor(rest / US_PER_HOUR);
    rest -= hour * US_PER_HOUR;
    const minute = Math.floor(rest / US_PER_MINUTE);
    rest -= minute * US_PER_MINUTE;
    const second = Math.floor(rest / US_PER_SECOND);
    rest -= second * US_PER_SECOND;
    this.#ensure(29);
    const buf = this.#buffer;
    const at = this.#length;
    const prefix = this.#datePrefix;
    buf[at] = 34;
    for (let k = 0; k < 11; k++) buf[at + 1 + k] = prefix[k] ?? ZERO;
    buf[at + 12] = ZERO + Math.floor(hour / 10);
    buf[at + 13] = ZERO + (hour % 10);
    buf[at + 14] = 58;
    buf[at + 15] = ZERO + Math.floor(minute / 10);
    buf[at + 16] = ZERO + (minute % 10);
    buf[at + 17] = 58;
    buf[at + 18] = ZERO + Math.floor(second / 10);
    buf[at + 19] = ZERO + (second % 10);
    const digits = fractionDigits(rest);
    let end = at + 20;
    if (digits > 0) {
      buf[end] = 46; // "."
      if (digits === 3) rest /= 1000;
      for (let k = end + digits; k > end; k--) {
        buf[k] = ZERO + (rest % 10);
        rest = Math.floor(rest / 10);
      }
      end += digits + 1;
    }
    buf[end] = 90; // "Z"
    buf[end + 1] = 34;
    this.#length = end + 2;
  }

  /** The bytes written so far (a view, not a copy). */
  bytes(): Buffer {
    return this.#buffer.subarray(0, this.#length);
  }
}
