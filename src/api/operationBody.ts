/**
 * An operation body with its output files measured and left out, read as it streams in.
 * Conversions and text-to-CAD jobs return whole CAD files in `outputs` (base64, or plain text for
 * the multi-file iteration), megabytes each, and the export keeps only their names and sizes: the
 * body is scanned chunk by chunk and each value of the top-level `outputs` object is replaced by
 * `""` as it passes, so what is held, and later parsed, is the body without the files. Memory
 * then depends on the number of outputs, not on their size.
 */

/** One output file's size, counted both ways: which applies depends on the operation's type. */
export interface MeasuredOutput {
  /** Bytes its value decodes to as base64 (Buffer.from(value, "base64").length). */
  base64Bytes: number;
  /** Bytes of its value as UTF-8 text (Buffer.byteLength(value)), for plain text outputs. */
  textBytes: number;
}

/** What a body filter hands the transport: the bytes to keep of each chunk, then of the end. */
export interface BodyFilter {
  write(chunk: Buffer): Buffer[];
  end(): Buffer[];
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** Node's base64 decoder counts these (standard and URL-safe alphabets) and ignores the rest. */
const BASE64_CHAR = new Uint8Array(256);
for (const c of "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/-_") {
  BASE64_CHAR[c.charCodeAt(0)] = 1;
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

/** Container kinds on the scanner's stack. */
const OBJECT = 0;
const ARRAY = 1;

/**
 * The streaming filter. Outside the output values it only tracks nesting, strings and keys; the
 * keys it reads are those of the root object (to find `outputs`) and of `outputs` (the names).
 */
export class OutputSkippingFilter implements BodyFilter {
  /** Sizes by output name; a name repeated in the body counts its last value, as JSON.parse does. */
  readonly outputs = new Map<string, MeasuredOutput>();

  readonly #stack: number[] = [];
  /** Per level: whether the next string of an object is a key. */
  readonly #keyNext: boolean[] = [];
  /** The stack depth of the `outputs` object while inside it, else 0. */
  #outputsDepth = 0;
  #lastRootKey: string | undefined;
  #lastOutputName: string | undefined;

  #inString = false;
  #escape = false;
  /** Hex digits of a \u escape still to read (0 when not in one), and their value so far. */
  #hexLeft = 0;
  #hexValue = 0;
  /** The raw bytes of a key being read (root or output name), else undefined. */
  #capture: number[] | undefined;
  #captureIsRootKey = false;

  /** In an output value: its content is counted and dropped. */
  #skipping = false;
  #base64Chars = 0;
  #base64Done = false;
  #textBytes = 0;
  /** A high surrogate from a \u escape, waiting for its low half. */
  #pendingHigh = false;

  write(chunk: Buffer): Buffer[] {
    const kept: Buffer[] = [];
    let from = 0;
    for (let i = 0; i < chunk.length; i++) {
      const byte = chunk[i] as number;
      if (this.#inString) {
        if (this.#skipping) {
          if (!this.#escape && this.#hexLeft === 0 && byte !== QUOTE && byte !== BACKSLASH) {
            i = this.#skipRun(chunk, i) - 1;
            continue;
          }
          if (this.#skipByte(byte)) {
            // The closing quote is kept: the value reads as "".
            from = i;
            this.#skipping = false;
            this.#inString = false;
          }
          continue;
        }
        this.#stringByte(byte);
        continue;
      }
      switch (byte) {
        case QUOTE:
          if (this.#startString()) {
            kept.push(chunk.subarray(from, i + 1));
            from = chunk.length;
          }
          break;
        case 0x7b: // {
          this.#open(OBJECT);
          break;
        case 0x5b: // [
          this.#open(ARRAY);
          break;
        case 0x7d: // }
        case 0x5d: // ]
          if (this.#stack.length === this.#outputsDepth) this.#outputsDepth = 0;
          this.#stack.pop();
          this.#keyNext.pop();
          break;
        case 0x3a: // :
          this.#keyNext[this.#keyNext.length - 1] = false;
          break;
        case 0x2c: // ,
          if (this.#stack.at(-1) === OBJECT) this.#keyNext[this.#keyNext.length - 1] = true;
          break;
        default:
          break;
      }
    }
    if (!this.#skipping && from < chunk.length) kept.push(chunk.subarray(from));
    return kept;
  }

  end(): Buffer[] {
    return [];
  }

  #open(kind: number): void {
    const depth = this.#stack.length;
    if (depth === 1 && this.#stack[0] === OBJECT && this.#lastRootKey === "outputs" && kind === OBJECT) {
      this.#outputsDepth = depth + 1;
    }
    this.#stack.push(kind);
    this.#keyNext.push(kind === OBJECT);
  }

  /** A string starts; returns true when it is an output value, whose content is then skipped. */
  #startString(): boolean {
    this.#inString = true;
    this.#escape = false;
    this.#hexLeft = 0;
    const depth = this.#stack.length;
    const isKey = this.#stack.at(-1) === OBJECT && this.#keyNext.at(-1) === true;
    if (isKey && (depth === 1 || depth === this.#outputsDepth)) {
      this.#capture = [];
      this.#captureIsRootKey = depth === 1;
      return false;
    }
    this.#capture = undefined;
    if (!isKey && depth === this.#outputsDepth && this.#lastOutputName !== undefined) {
      this.#skipping = true;
      this.#base64Chars = 0;
      this.#base64Done = false;
      this.#textBytes = 0;
      this.#pendingHigh = false;
      return true;
    }
    return false;
  }

  /** A byte of a string that is kept: only its end matters, and a key's text. */
  #stringByte(byte: number): void {
    if (this.#escape) {
      this.#escape = false;
    } else if (byte === BACKSLASH) {
      this.#escape = true;
    } else if (byte === QUOTE) {
      this.#inString = false;
      this.#endKey();
      return;
    }
    this.#capture?.push(byte);
  }

  #endKey(): void {
    const raw = this.#capture;
    if (raw === undefined) return;
    this.#capture = undefined;
    const name = decodeJsonString(raw);
    if (this.#captureIsRootKey) this.#lastRootKey = name;
    else this.#lastOutputName = name;
  }

  /** A byte of an output value: counted, never kept. Returns true at the closing quote. */
  #skipByte(byte: number): boolean {
    if (this.#hexLeft > 0) {
      this.#hexValue = this.#hexValue * 16 + hexDigit(byte);
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
      this.#character(SIMPLE_ESCAPE[byte] ?? byte);
      return false;
    }
    if (byte === BACKSLASH) {
      this.#escape = true;
      return false;
    }
    if (byte === QUOTE) {
      this.#flushSurrogate();
      this.#finishOutput();
      return true;
    }
    // A raw byte: already UTF-8, one byte of text; a base64 digit when it is one.
    this.#flushSurrogate();
    this.#textBytes += 1;
    this.#base64(byte);
    return false;
  }

  /**
   * A run of raw bytes of an output value from `start` to the next quote or backslash, counted in
   * one tight loop (the files are megabytes); returns where the run ends.
   */
  #skipRun(chunk: Buffer, start: number): number {
    this.#flushSurrogate();
    let end = start;
    let digits = 0;
    let done = this.#base64Done;
    while (end < chunk.length) {
      const byte = chunk[end] as number;
      if (byte === QUOTE || byte === BACKSLASH) break;
      if (!done) {
        if (byte === EQUALS) done = true;
        else digits += BASE64_CHAR[byte] as number;
      }
      end++;
    }
    this.#textBytes += end - start;
    this.#base64Chars += digits;
    this.#base64Done = done;
    return end;
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
    else this.#base64Chars += BASE64_CHAR[byte] ?? 0;
  }

  #finishOutput(): void {
    const name = this.#lastOutputName;
    if (name === undefined) return;
    this.outputs.set(name, {
      base64Bytes: Math.floor((this.#base64Chars * 3) / 4),
      textBytes: this.#textBytes,
    });
  }
}

function hexDigit(byte: number): number {
  if (byte >= 0x30 && byte <= 0x39) return byte - 0x30;
  if (byte >= 0x61 && byte <= 0x66) return byte - 0x57;
  if (byte >= 0x41 && byte <= 0x46) return byte - 0x37;
  return 0;
}

/** A key's text from its raw JSON bytes (escapes included); a malformed one is kept as written. */
function decodeJsonString(raw: number[]): string {
  const text = Buffer.from(raw).toString("utf8");
  try {
    return JSON.parse(`"${text}"`) as string;
  } catch {
    return text;
  }
}
