import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { BASE64_DIGIT, firstControl, firstNonDigit, scansInWebAssembly } from "../../src/api/simdScan.js";

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/-_";

/** The index of the first byte in chunk[start, end) for which `stops` is true, or -1. */
function firstWhere(chunk: Buffer, start: number, end: number, stops: (byte: number) => boolean): number {
  for (let i = start; i < end; i++) if (stops(chunk[i] as number)) return i;
  return -1;
}

const isDigit = (byte: number) => ALPHABET.includes(String.fromCharCode(byte));
const scans = [
  {
    name: "firstNonDigit",
    scan: firstNonDigit,
    stops: (byte: number) => !isDigit(byte),
    fill: 0x51,
    notFound: (end: number) => end,
  },
  {
    name: "firstControl",
    scan: firstControl,
    stops: (byte: number) => byte < 0x20,
    fill: 0x20,
    notFound: () => -1,
  },
];

test("the scans run in WebAssembly SIMD on this Node", () => {
  expect(scansInWebAssembly()).toBe(true);
});

test("the digit table is the base64 decoder's alphabet", () => {
  for (let byte = 0; byte < 256; byte++) {
    const counted = byte < 0x80 && Buffer.from(`${String.fromCharCode(byte)}AAA`, "latin1").length === 4;
    const decoded = counted && Buffer.from(`${String.fromCharCode(byte)}AAA`, "base64").length === 3;
    expect(BASE64_DIGIT[byte] === 1, `byte ${byte}`).toBe(decoded);
  }
});

describe.each(scans)("$name", ({ scan, stops, fill, notFound }) => {
  test("every byte value, at every place of a block and of the tail, is told apart", () => {
    const run = Buffer.alloc(200, fill);
    for (let at = 0; at < run.length; at++) {
      for (let byte = 0; byte < 256; byte++) {
        run[at] = byte;
        const want = stops(byte) ? at : notFound(run.length);
        // Asserted only when it differs: 51,200 cases.
        if (scan(run, 0, run.length) !== want)
          expect(scan(run, 0, run.length), `${byte} at ${at}`).toBe(want);
      }
      run[at] = fill;
    }
  });

  test("runs longer than the WebAssembly memory, at any alignment in their buffer", () => {
    const body = Buffer.alloc(400_003, fill);
    for (const start of [0, 1, 7, 63, 64, 65]) {
      for (const other of [start, start + 63, start + 64, 131_071, 131_072, 131_073, 262_200, 399_990]) {
        body[other] = 0x0a;
        expect(scan(body, start, body.length), `start ${start}, stop at ${other}`).toBe(other);
        expect(scan(body, start, other), `before ${other}`).toBe(notFound(other));
        body[other] = fill;
      }
      expect(scan(body, start, body.length)).toBe(notFound(body.length));
      const view = body.subarray(start);
      expect(scan(view, 3, view.length - 2)).toBe(notFound(view.length - 2));
    }
  });

  test("any bytes, mostly ones it passes, any stretch of them: as the byte-by-byte answer", () => {
    const byte = fc.oneof(
      { weight: 40, arbitrary: fc.constantFrom(...Buffer.from(ALPHABET)) },
      { weight: 1, arbitrary: fc.integer({ min: 0, max: 255 }) },
    );
    fc.assert(
      fc.property(fc.array(byte, { maxLength: 3000 }), fc.nat(), fc.nat(), (bytes, a, b) => {
        const chunk = Buffer.from(bytes);
        const start = chunk.length === 0 ? 0 : a % chunk.length;
        const end = start + (chunk.length === 0 ? 0 : b % (chunk.length - start + 1));
        const found = firstWhere(chunk, start, end, stops);
        expect(scan(chunk, start, end)).toBe(found === -1 ? notFound(end) : found);
      }),
      { numRuns: 500, seed: 29 },
    );
  });
});
