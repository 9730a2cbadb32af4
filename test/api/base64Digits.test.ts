import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { BASE64_DIGIT, firstNonDigit, MODULE_BYTES } from "../../src/api/base64Digits.js";

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/-_";

/** The answer byte by byte, as Node's decoder tells digits from the rest. */
function reference(chunk: Buffer, start: number, end: number): number {
  for (let i = start; i < end; i++) {
    if (!ALPHABET.includes(String.fromCharCode(chunk[i] as number))) return i;
  }
  return end;
}

describe("firstNonDigit", () => {
  test("the SIMD module is valid WebAssembly on this Node, so that it is what the checks run", () => {
    expect(WebAssembly.validate(MODULE_BYTES)).toBe(true);
  });

  test("the digit table is the decoder's alphabet", () => {
    for (let byte = 0; byte < 256; byte++) {
      const decoded = Buffer.from(`${String.fromCharCode(byte)}AAA`, "latin1").toString("latin1");
      expect(BASE64_DIGIT[byte] === 1, `byte ${byte}`).toBe(
        Buffer.from(decoded, "base64").length === 3 && byte < 0x80,
      );
    }
  });

  test("every byte value, at every place of a block and of the tail, is told apart", () => {
    const run = Buffer.alloc(200, "Q");
    for (let at = 0; at < run.length; at++) {
      for (let byte = 0; byte < 256; byte++) {
        run[at] = byte;
        const want = BASE64_DIGIT[byte] === 1 ? run.length : at;
        if (firstNonDigit(run, 0, run.length) !== want) {
          expect(firstNonDigit(run, 0, run.length), `byte ${byte} at ${at}`).toBe(want);
        }
      }
      run[at] = 0x51;
    }
  });

  test("runs longer than the WebAssembly memory, at any alignment in their buffer", () => {
    const body = Buffer.alloc(400_003, "A");
    for (const start of [0, 1, 7, 63, 64, 65]) {
      for (const other of [start, start + 63, start + 64, 131_071, 131_072, 131_073, 262_200, 399_990]) {
        body[other] = 0x20;
        expect(firstNonDigit(body, start, body.length), `start ${start}, other at ${other}`).toBe(other);
        expect(firstNonDigit(body, start, other), `before ${other}`).toBe(other);
        body[other] = 0x41;
      }
      expect(firstNonDigit(body, start, body.length)).toBe(body.length);
      const view = body.subarray(start);
      expect(firstNonDigit(view, 3, view.length - 2)).toBe(view.length - 2);
    }
  });

  test("any bytes, mostly digits, any stretch of them: as the byte-by-byte answer", () => {
    const byte = fc.oneof(
      { weight: 40, arbitrary: fc.constantFrom(...Buffer.from(ALPHABET)) },
      { weight: 1, arbitrary: fc.integer({ min: 0, max: 255 }) },
    );
    fc.assert(
      fc.property(fc.array(byte, { maxLength: 3000 }), fc.nat(), fc.nat(), (bytes, a, b) => {
        const chunk = Buffer.from(bytes);
        const start = chunk.length === 0 ? 0 : a % chunk.length;
        const end = start + (chunk.length === 0 ? 0 : b % (chunk.length - start + 1));
        expect(firstNonDigit(chunk, start, end)).toBe(reference(chunk, start, end));
      }),
      { numRuns: 500, seed: 29 },
    );
  });
});
