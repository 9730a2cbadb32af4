/**
 * An operation body with its output files measured and left out, read as it streams in.
 * Conversions and text-to-CAD jobs return whole CAD files in `outputs` (base64, or plain text for
 * the multi-file iteration), megabytes each, and the export keeps only their names and sizes: the
 * body is scanned chunk by chunk and each value of the top-level `outputs` object is replaced by
 * `""` as it passes, so what is held, and later parsed, is the body without the files. Memory
 * then depends on the number of outputs, not on their size.
 */

import { type MeasuredOutput, OutputValueCounter } from "./outputSize.js";

/** What a body filter hands the transport: the bytes to keep of each chunk, then of the end. */
export interface BodyFilter {
  write(chunk: Buffer): Buffer[];
  end(): Buffer[];
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

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
  /** The raw bytes of a key being read (root or output name), else undefined. */
  #capture: number[] | undefined;
  #captureIsRootKey = false;

  /** In an output value: its content is counted and dropped. */
  #skipping = false;
  #counter = new OutputValueCounter();

  write(chunk: Buffer): Buffer[] {
    const kept: Buffer[] = [];
    let from = 0;
    for (let i = 0; i < chunk.length; i++) {
      const byte = chunk[i] as number;
      if (this.#inString) {
        if (this.#skipping) {
          if (this.#counter.canRun(byte)) {
            i = this.#counter.run(chunk, i) - 1;
            continue;
          }
          if (this.#counter.byte(byte)) {
            this.#finishOutput();
            // The closing quote is kept: the value reads as "", or as the bytes JSON.parse would
            // have refused in it, so that the body fails as the whole body would.
            const refused = this.#counter.invalid;
            if (refused !== undefined) kept.push(Buffer.from(refused));
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
      this.#counter = new OutputValueCounter();
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

  #finishOutput(): void {
    const name = this.#lastOutputName;
    if (name !== undefined) this.outputs.set(name, this.#counter.result());
  }
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
