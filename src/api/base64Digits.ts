/**
 * Where a run of base64 digits ends in a Buffer. Output files are megabytes of base64 in every
 * operation body, and each byte must be looked at to size the file exactly: a JavaScript loop is
 * ~6x slower than a native decode, and a native decode needs the bytes copied into a string first,
 * megabytes of garbage per operation. So the run is copied into a WebAssembly memory (a native
 * copy, no string) and checked there 64 bytes a step with SIMD; JavaScript looks only at the last
 * block, to find the exact byte.
 */

/** Node's base64 decoder counts these (standard and URL-safe alphabets) and ignores the rest. */
export const BASE64_DIGIT = new Uint8Array(256);
for (const c of "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/-_") {
  BASE64_DIGIT[c.charCodeAt(0)] = 1;
}

/** The WebAssembly memory's size: a run longer than this is checked in parts. */
const MEMORY_PAGES = 2;
const MEMORY_BYTES = MEMORY_PAGES * 65_536;
const BLOCK = 64;

/**
 * The index of the first byte in chunk[start, end) that is not a base64 digit ('=' is not one), or
 * `end` when they all are.
 */
export function firstNonDigit(chunk: Buffer, start: number, end: number): number {
  let at = start;
  if (simd !== undefined) {
    while (end - at >= BLOCK) {
      const length = Math.min(end - at, MEMORY_BYTES) & ~(BLOCK - 1);
      simd.memory.set(chunk.subarray(at, at + length), 0);
      const digits = simd.digitBlocks(length);
      at += digits;
      if (digits < length) break;
    }
  }
  while (at < end && BASE64_DIGIT[chunk[at] as number] === 1) at++;
  return at;
}

/**
 * The module, as wat2wasm writes it:
 *
 * (module
 *   (memory (export "memory") 2)
 *   (func (export "digitBlocks") (param $len i32) (result i32)
 *     (local $i i32) (local $end i32) (local $v v128) (local $hi v128) (local $lo v128) (local $low4 v128)
 *     (local.set $hi (v128.const i8x16 HIGH_NIBBLE))
 *     (local.set $lo (v128.const i8x16 LOW_NIBBLE))
 *     (local.set $low4 (v128.const i8x16 15 15 ... 15))
 *     (local.set $end (i32.and (local.get $len) (i32.const -64)))
 *     (block $done
 *       (loop $next
 *         (br_if $done (i32.ge_u (local.get $i) (local.get $end)))
 *         (br_if $done (i32.eqz (i8x16.all_true (i8x16.min_u (i8x16.min_u DIGITS(0) DIGITS(16))
 *                                                             (i8x16.min_u DIGITS(32) DIGITS(48))))))
 *         (local.set $i (i32.add (local.get $i) (i32.const 64)))
 *         (br $next)))
 *     (local.get $i)))
 *
 * where DIGITS(offset), for the 16 bytes at $i + offset, is non-zero in each lane holding a digit:
 *   (v128.and
 *     (i8x16.swizzle (local.get $hi) (i8x16.shr_u (local.tee $v (v128.load offset=OFFSET (local.get $i))) (i32.const 4)))
 *     (i8x16.swizzle (local.get $lo) (v128.and (local.get $v) (local.get $low4))))
 *
 * digitBlocks returns the offset of the first 64-byte block holding a byte that is not a digit, or
 * the length rounded down to a block. A byte is a digit when the bit its high nibble selects
 * (HIGH_NIBBLE) is set among those of its low nibble (LOW_NIBBLE); one bit per high nibble's digits:
 * 1: '+' '-' '/' (0x2B 0x2D 0x2F), 2: '0'-'9', 4: 'A'-'O' and 'a'-'o', 8: 'P'-'Z' and '_', 16: 'p'-'z'.
 */
const HIGH_NIBBLE = [0, 0, 1, 2, 4, 8, 4, 16, 0, 0, 0, 0, 0, 0, 0, 0];
const LOW_NIBBLE = [26, 30, 30, 30, 30, 30, 30, 30, 30, 30, 28, 5, 4, 5, 4, 13];

const I32 = 0x7f;
const V128 = 0x7b;
const SIMD = 0xfd;
/** Opcodes, SIMD ones after their 0xFD prefix (all below 0x80, so one byte of LEB128). */
const op = {
  block: 0x02,
  loop: 0x03,
  void: 0x40,
  br: 0x0c,
  brIf: 0x0d,
  end: 0x0b,
  localGet: 0x20,
  localSet: 0x21,
  localTee: 0x22,
  i32Const: 0x41,
  i32Eqz: 0x45,
  i32GeU: 0x4f,
  i32Add: 0x6a,
  i32And: 0x71,
  v128Load: 0x00,
  v128Const: 0x0c,
  i8x16Swizzle: 0x0e,
  v128And: 0x4e,
  i8x16AllTrue: 0x63,
  i8x16ShrU: 0x6d,
  i8x16MinU: 0x77,
} as const;
/** Locals by index: the parameter first, then the declared ones. */
const [LEN, I, END, V, HI, LO, LOW4] = [0, 1, 2, 3, 4, 5, 6];

function digits(offset: number): number[] {
  return [
    ...[op.localGet, HI, op.localGet, I, SIMD, op.v128Load, 4, offset, op.localTee, V],
    ...[op.i32Const, 4, SIMD, op.i8x16ShrU, SIMD, op.i8x16Swizzle],
    ...[op.localGet, LO, op.localGet, V, op.localGet, LOW4, SIMD, op.v128And, SIMD, op.i8x16Swizzle],
    ...[SIMD, op.v128And],
  ];
}

const MIN_U = [SIMD, op.i8x16MinU];
const BODY = [
  ...[2, 2, I32, 4, V128],
  ...[SIMD, op.v128Const, ...HIGH_NIBBLE, op.localSet, HI],
  ...[SIMD, op.v128Const, ...LOW_NIBBLE, op.localSet, LO],
  ...[SIMD, op.v128Const, ...new Array<number>(16).fill(15), op.localSet, LOW4],
  ...[op.localGet, LEN, op.i32Const, 0x40 /* -64 */, op.i32And, op.localSet, END],
  ...[op.block, op.void, op.loop, op.void],
  ...[op.localGet, I, op.localGet, END, op.i32GeU, op.brIf, 1],
  ...[...digits(0), ...digits(16), ...MIN_U, ...digits(32), ...digits(48), ...MIN_U, ...MIN_U],
  ...[SIMD, op.i8x16AllTrue, op.i32Eqz, op.brIf, 1],
  ...[op.localGet, I, op.i32Const, 0xc0, 0x00 /* 64 */, op.i32Add, op.localSet, I, op.br, 0],
  ...[op.end, op.end, op.localGet, I, op.end],
];

function section(id: number, content: number[]): number[] {
  return [id, ...uleb128(content.length), ...content];
}

function uleb128(value: number): number[] {
  const bytes: number[] = [];
  do {
    const byte = value & 0x7f;
    value >>>= 7;
    bytes.push(value === 0 ? byte : byte | 0x80);
  } while (value !== 0);
  return bytes;
}

function name(text: string): number[] {
  return [text.length, ...Buffer.from(text, "ascii")];
}

export const MODULE_BYTES = Uint8Array.from([
  ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
  ...section(1, [1, 0x60, 1, I32, 1, I32]),
  ...section(3, [1, 0]),
  ...section(5, [1, 0x00, MEMORY_PAGES]),
  ...section(7, [2, ...name("memory"), 0x02, 0, ...name("digitBlocks"), 0x00, 0]),
  ...section(10, [1, ...uleb128(BODY.length), ...BODY]),
]);

/**
 * The compiled module, or undefined where WebAssembly or its SIMD is not available (node
 * --jitless, say): the bytes are then all checked by the loop in firstNonDigit.
 */
const simd = instantiate();

function instantiate(): { memory: Uint8Array; digitBlocks: (length: number) => number } | undefined {
  const wasm = (globalThis as { WebAssembly?: WebAssemblyApi }).WebAssembly;
  if (wasm === undefined || !wasm.validate(MODULE_BYTES)) return undefined;
  const { exports } = new wasm.Instance(new wasm.Module(MODULE_BYTES));
  return {
    memory: new Uint8Array((exports.memory as { buffer: ArrayBuffer }).buffer),
    digitBlocks: exports.digitBlocks as (length: number) => number,
  };
}

/** The little of WebAssembly used here (TypeScript declares it only with the DOM's types). */
interface WebAssemblyApi {
  validate(bytes: Uint8Array): boolean;
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object) => { exports: Record<string, unknown> };
}
