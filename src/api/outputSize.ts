/** One output file's size, counted both ways: which applies depends on the operation's type. */
export interface MeasuredOutput {
  /** Bytes its value decodes to as base64 (Buffer.from(value, "base64").length). */
  base64Bytes: number;
  /** Bytes of its value as UTF-8 text (Buffer.byteLength(value)), for plain text outputs. */
  textBytes: number;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** Node's base64 decoder counts these (standard and URL-safe alphabets) and ignores the rest. */
const BASE64_DIGIT = new Uint8Array(256);
for (const c of "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/-_") {
  BASE64_DIGIT[c.charCodeAt(0)] = 1;
}

/** Per byte: DIGIT for a base64 digit, CONTROL for a control character (raw, JSON allows none). */
const DIGIT = 1;
const CONTROL = 2;
const BYTE_CLASS = new Uint8Array(256);
for (let byte = 0; byte < 256; byte++) {
  BYTE_CLASS[byte] = (BASE64_DIGIT[byte] ? DIGIT : 0) | (byte < 0x20 ? CONTROL : 0);
}
const EQUALS = 0x3d;

/** Bytes a JSON escape's single character (\n, \", \/ ...) stands for. */
const SIMPLE_ESCAPE: Record<number, number> = {
  34: 0x22,
  92: 0x5c,
  47: 0x2f,
  98: 0x08,
  102: 0x0c,
  110: 0x0a,
  114: 0x0d,
  116: 0x09,
};

/**
 * Counts one output value's size from its raw JSON bytes (after the opening quote), both as
 * base64 and as UTF-8 text, without keeping any of it: escapes are decoded as JSON.parse would,
 * then sized as Buffer.from(value, "base64") and Buffer.byteLength(value) would. What JSON.parse
 * would refuse in the value (a raw control character, an unknown escape, a \u escape without four
 * hex digits) is kept as `invalid`, for the body to fail as a whole one would.
 */
export class OutputValueCounter {
  /** The value's first bytes JSON.parse refuses, as written, or undefined while it is valid. */
  invalid: number[] | undefined;
  #escape = false;
  /** Hex digits of a \u escape still to read (0 when not in one), and their value so far. */
  #hexLeft = 0;
  #hexValue = 0;
  #base64Chars = 0;
  #base64Done = false;
  #textBytes = 0;
  /** A high surrogate from a \u escape, waiting for its low half. */
  #pendingHigh = false;
  readonly #next = new NextByteIndex();

  /** Whether `byte` starts a run of plain bytes that run() can count in one go. */
  canRun(byte: number): boolean {
    return !this.#escape && this.#hexLeft === 0 && byte !== QUOTE && byte !== BACKSLASH;
  }

  result(): MeasuredOutput {
    return { base64Bytes: Math.floor((this.#base64Chars * 3) / 4), textBytes: this.#textBytes };
  }

  /** A byte of an output value: counted, never kept. Returns true at the closing quote. */
  byte(byte: number): boolean {
    if (this.#hexLeft > 0) {
      const digit = hexDigit(byte);
      // JSON.parse stops at the first byte of a \u escape that is not a hex digit: the value ends
      // invalid there, and a quote there ends it as the parse would have stopped.
      if (digit < 0) {
        this.#refuse([BACKSLASH, 0x75, byte === QUOTE ? 0x47 : byte]);
        this.#hexLeft = 0;
        return byte === QUOTE;
      }
      this.#hexValue = this.#hexValue * 16 + digit;
      this.#hexLeft -= 1;
      if (this.#hexLeft === 0) this.#codeUnit(this.#hexValue);
      return false;
    }
    if (this.#escape) {
      this.#escape = false;
      if (byte === 0x75) {
        this.#hexLeft = 4;
        this.#hexValue = 0;
        return false;
      }
      const escaped = SIMPLE_ESCAPE[byte];
      if (escaped === undefined) this.#refuse([BACKSLASH, byte]);
      this.#character(escaped ?? byte);
      return false;
    }
    if (byte < 0x20) this.#refuse([byte]);
    if (byte === BACKSLASH) {
      this.#escape = true;
      return false;
    }
    if (byte === QUOTE) {
      this.#flushSurrogate();
      return true;
    }
    // A raw byte: already UTF-8, one byte of text; a base64 digit when it is one.
    this.#flushSurrogate();
    this.#textBytes += 1;
    this.#base64(byte);
    return false;
  }

  /**
   * A run of raw bytes of an output value from `start` to the next quote or backslash, counted
   * without a branch per byte (the files are megabytes): the run's end and the first '=' are found
   * by Buffer.indexOf, which is native, and the base64 digits before it by #countBase64Digits.
   * Returns where the run ends.
   */
  run(chunk: Buffer, start: number): number {
    this.#flushSurrogate();
    const end = Math.min(this.#next.of(chunk, QUOTE, start), this.#next.of(chunk, BACKSLASH, start));
    this.#textBytes += end - start;
    let unchecked = start;
    if (!this.#base64Done) {
      const digitsEnd = Math.min(end, this.#next.of(chunk, EQUALS, start));
      this.#base64Chars += this.#countBase64Digits(chunk, start, digitsEnd);
      unchecked = digitsEnd;
      if (digitsEnd < end) this.#base64Done = true;
    }
    this.#refuseControl(chunk, unchecked, end);
    return end;
  }

  /**
   * The base64 alphabet's characters in chunk[start, end), which holds no '='; a control character
   * among them is refused. Whole 4-character groups are decoded natively into a scratch buffer, far
   * faster than a loop over megabytes: 3 bytes a group means every character was a digit, since
   * the decoder skips any other and the result is then shorter. Otherwise, and for a last partial
   * group, the characters are counted one by one.
   */
  #countBase64Digits(chunk: Buffer, start: number, end: number): number {
    const whole = (end - start) & ~3;
    if (whole > 0) {
      const bytes = (whole / 4) * 3;
      if (scratch.length < bytes) scratch = Buffer.allocUnsafe(bytes);
      if (scratch.write(chunk.toString("latin1", start, start + whole), 0, "base64") === bytes) {
        return whole + this.#countOneByOne(chunk, start + whole, end);
      }
    }
    return this.#countOneByOne(chunk, start, end);
  }

  #countOneByOne(chunk: Buffer, start: number, end: number): number {
    let digits = 0;
    let classes = 0;
    for (let i = start; i < end; i++) {
      const byteClass = BYTE_CLASS[chunk[i] as number] as number;
      digits += byteClass & DIGIT;
      classes |= byteClass;
    }
    if (classes & CONTROL) this.#refuseControl(chunk, start, end);
    return digits;
  }

  /** Refuses the first control character in chunk[start, end), if any and none was refused yet. */
  #refuseControl(chunk: Buffer, start: number, end: number): void {
    if (this.invalid !== undefined || start >= end) return;
    const at = firstControl(chunk, start, end);
    if (at >= 0) this.invalid = [chunk[at] as number];
  }

  #refuse(bytes: number[]): void {
    this.invalid ??= bytes;
  }

  /** A character from a simple escape (always ASCII). */
  #character(byte: number): void {
    this.#flushSurrogate();
    this.#textBytes += 1;
    this.#base64(byte);
  }

  /** A \uXXXX code unit: its UTF-8 length, pairing surrogates as a JS string then Buffer would. */
  #codeUnit(unit: number): void {
    if (unit >= 0xdc00 && unit <= 0xdfff && this.#pendingHigh) {
      this.#pendingHigh = false;
      this.#textBytes += 4;
      this.#base64Done = true;
      return;
    }
    this.#flushSurrogate();
    if (unit >= 0xd800 && unit <= 0xdbff) {
      this.#pendingHigh = true;
      return;
    }
    // A lone low surrogate is encoded as U+FFFD (3 bytes).
    this.#textBytes += unit < 0x80 ? 1 : unit < 0x800 ? 2 : 3;
    if (unit < 0x80) this.#base64(unit);
  }

  /** A high surrogate with no low half after it is encoded as U+FFFD (3 bytes). */
  #flushSurrogate(): void {
    if (!this.#pendingHigh) return;
    this.#pendingHigh = false;
    this.#textBytes += 3;
  }

  /** Node's decoder stops at the first '=' and skips characters outside the alphabet. */
  #base64(byte: number): void {
    if (this.#base64Done) return;
    if (byte === EQUALS) this.#base64Done = true;
    else this.#base64Chars += BASE64_DIGIT[byte] ?? 0;
  }
}

/**
 * Where a byte next occurs in a chunk, remembered per byte value: a chunk with many short runs
 * (text full of escapes) is then searched once per occurrence, not once per run.
 */
class NextByteIndex {
  #chunk: Buffer | undefined;
  readonly #found = new Map<number, number>();

  /** The index of `byte`'s next occurrence at or after `start`, or the chunk's length. */
  of(chunk: Buffer, byte: number, start: number): number {
    if (chunk !== this.#chunk) {
      this.#chunk = chunk;
      this.#found.clear();
    }
    const known = this.#found.get(byte);
    if (known !== undefined && known >= start) return known;
    const at = chunk.indexOf(byte, start);
    const next = at === -1 ? chunk.length : at;
    this.#found.set(byte, next);
    return next;
  }
}

/** The index of the first byte below 0x20 in chunk[start, end) (JSON allows none raw), or -1. */
function firstControl(chunk: Buffer, start: number, end: number): number {
  for (let i = start; i < end; i++) if ((chunk[i] as number) < 0x20) return i;
  return -1;
}

/** Where whole groups of base64 are decoded to check them (grown to the largest run). */
let scratch = Buffer.alloc(0);

/** A hex digit's value, or -1 for any other byte. */
function hexDigit(byte: number): number {
  if (byte >= 0x30 && byte <= 0x39) return byte - 0x30;
  if (byte >= 0x61 && byte <= 0x66) return byte - 0x57;
  if (byte >= 0x41 && byte <= 0x46) return byte - 0x37;
  return -1;
}

/** An output value of base64 digits only, with at most its two '=' of padding at the end. */
const PLAIN_BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/;

/**
 * Bytes `value` decodes to as base64, as Buffer.from(value, "base64").length, without decoding it:
 * the digits before the first '=' (the decoder skips any other character), three bytes for every
 * four. A value with a character past ASCII is left to the decoder, whose treatment of those the
 * count does not model.
 */
export function decodedBase64Length(value: string): number {
  if (PLAIN_BASE64.test(value)) {
    const equals = value.indexOf("=");
    return Math.floor(((equals === -1 ? value.length : equals) * 3) / 4);
  }
  let digits = 0;
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code >= 0x80) return Buffer.from(value, "base64").length;
    if (code === EQUALS) break;
    digits += BASE64_DIGIT[code] as number;
  }
  return Math.floor((digits * 3) / 4);
}
