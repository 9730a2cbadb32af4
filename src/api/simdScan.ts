/**
 * Scans of output values' bytes. Output files are megabytes in every operation body, and each byte
 * must be looked at to size a file exactly and to refuse what JSON.parse would: a JavaScript loop
 * is ~6x slower than a native decode, and a native decode needs the bytes copied into a string
 * first, megabytes of garbage per operation. So a run of bytes is copied into a WebAssembly memory
 * (a native copy, no string) and scanned there 64 bytes a step with SIMD; JavaScript looks only at
 * the block where the scan stopped, to find the exact byte.
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
  let at = simd === undefined ? start : scanBlocks(simd.memory, simd.digitBlocks, chunk, start, end);
  while (at < end && BASE64_DIGIT[chunk[at] as number] === 1) at++;
  return at;
}

/** The index of the first byte below 0x20 in chunk[start, end) (JSON allows none raw), or -1. */
export function firstControl(chunk: Buffer, start: number, end: number): number {
  let at = simd === undefined ? start : scanBlocks(simd.memory, simd.controlBlocks, chunk, start, end);
  while (at < end && (chunk[at] as number) >= 0x20) at++;
  return at < end ? at : -1;
}

/**
 * Where `blocks` stops in chunk[start, end), copied into `memory` a part at a time: at its first
 * block that fails, or at the end of the last whole block.
 */
function scanBlocks(
  memory: Uint8Array,
  blocks: (length: number) => number,
  chunk: Buffer,
  start: number,
  end: number,
): number {
  let at = start;
  while (end - at >= BLOCK) {
    const length = Math.min(end - at, MEMORY_BYTES) & ~(BLOCK - 1);
    memory.set(chunk.subarray(at, at + length), 0);
    const passed = blocks(length);
    at += passed;
    if (passed < length) break;
  }
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
 *     BLOCKS((i32.eqz (i8x16.all_true (i8x16.min_u (i8x16.min_u DIGITS(0) DIGITS(16))
 *                                                  (i8x16.min_u DIGITS(32) DIGITS(48)))))))
 *   (func (export "controlBlocks") (param $len i32) (result i32)
 *     (local $i i32) (local $end i32) (local $v v128) (local $hi v128) (local $lo v128) (local $low4 v128)
 *     (local.set $v (v128.const i8x16 32 32 ... 32))
 *     BLOCKS((v128.any_true (i8x16.sub_sat_u (local.get $v)
 *       (i8x16.min_u (i8x16.min_u (v128.load offset=0 (local.get $i)) (v128.load offset=16 (local.get $i)))
 *                    (i8x16.min_u (v128.load offset=32 (local.get $i)) (v128.load offset=48 (local.get $i)))))))))
 *
 * where BLOCKS(STOP) walks the memory 64 bytes a step until STOP is true or the length's last
 * whole block, and returns where it stopped:
 *     (local.set $end (i32.and (local.get $len) (i32.const -64)))
 *     (block $done
 *       (loop $next
 *         (br_if $done (i32.ge_u (local.get $i) (local.get $end)))
 *         (br_if $done STOP)
 *         (local.set $i (i32.add (local.get $i) (i32.const 64)))
 *         (br $next)))
 *     (local.get $i)
 *
 * and DIGITS(offset), for the 16 bytes at $i + offset, is non-zero in each lane holding a digit:
 *   (v128.and
 *     (i8x16.swizzle (local.get $hi) (i8x16.shr_u (local.tee $v (v128.load offset=OFFSET (local.get $i))) (i32.const 4)))
 *     (i8x16.swizzle (local.get $lo) (v128.and (local.get $v) (local.get $low4))))
 *
 * A byte is a digit when the bit its high nibble selects (HIGH_NIBBLE) is set among those of its
 * low nibble (LOW_NIBBLE); one bit per high nibble's digits: 1: '+' '-' '/' (0x2B 0x2D 0x2F),
 * 2: '0'-'9', 4: 'A'-'O' and 'a'-'o', 8: 'P'-'Z' and '_', 16: 'p'-'z'. A block holds a control
 * character when 32 minus its smallest byte, floored at 0, is not 0.
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
  v128AnyTrue: 0x53,
  i8x16AllTrue: 0x63,
  i8x16ShrU: 0x6d,
  i8x16SubSatU: 0x73,
  i8x16MinU: 0x77,
} as const;
/** Locals by index: the parameter first, then the declared ones. */
const [LEN, I, END, V, HI, LO, LOW4] = [0, 1, 2, 3, 4, 5, 6];
const MIN_U = [SIMD, op.i8x16MinU];

/** v128.load offset=OFFSET (local.get $i), 16-byte aligned. */
function load(offset: number): number[] {
  return [op.localGet, I, SIMD, op.v128Load, 4, offset];
}

function digits(offset: number): number[] {
  return [
    ...[op.localGet, HI, ...load(offset), op.localTee, V],
    ...[op.i32Const, 4, SIMD, op.i8x16ShrU, SIMD, op.i8x16Swizzle],
    ...[op.localGet, LO, op.localGet, V, op.localGet, LOW4, SIMD, op.v128And, SIMD, op.i8x16Swizzle],
    ...[SIMD, op.v128And],
  ];
}

function v128Const(lanes: readonly number[], local: number): number[] {
  return [SIMD, op.v128Const, ...lanes, op.localSet, local];
}

/** A function's body: its locals, `setup`, then BLOCKS(`stop`). */
function blocksBody(setup: number[], stop: number[]): number[] {
  const body = [
    ...[2, 2, I32, 4, V128],
    ...setup,
    ...[op.localGet, LEN, op.i32Const, 0x40 /* -64 */, op.i32And, op.localSet, END],
    ...[op.block, op.void, op.loop, op.void],
    ...[op.localGet, I, op.localGet, END, op.i32GeU, op.brIf, 1],
    ...[...stop, op.brIf, 1],
    ...[op.localGet, I, op.i32Const, 0xc0, 0x00 /* 64 */, op.i32Add, op.localSet, I, op.br, 0],
    ...[op.end, op.end, op.localGet, I, op.end],
  ];
  return [...uleb128(body.length), ...body];
}

const DIGIT_BLOCKS = blocksBody(
  [
    ...v128Const(HIGH_NIBBLE, HI),
    ...v128Const(LOW_NIBBLE, LO),
    ...v128Const(new Array<number>(16).fill(15), LOW4),
  ],
  [
    ...[...digits(0), ...digits(16), ...MIN_U, ...digits(32), ...digits(48), ...MIN_U, ...MIN_U],
    ...[SIMD, op.i8x16AllTrue, op.i32Eqz],
  ],
);

const CONTROL_BLOCKS = blocksBody(v128Const(new Array<number>(16).fill(32), V), [
  ...[op.localGet, V, ...load(0), ...load(16), ...MIN_U, ...load(32), ...load(48), ...MIN_U, ...MIN_U],
  ...[SIMD, op.i8x16SubSatU, SIMD, op.v128AnyTrue],
]);

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

const MODULE_BYTES = Uint8Array.from([
  ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
  ...section(1, [1, 0x60, 1, I32, 1, I32]),
  ...section(3, [2, 0, 0]),
  ...section(5, [1, 0x00, MEMORY_PAGES]),
  ...section(7, [
    3,
    ...name("memory"),
    0x02,
    0,
    ...name("digitBlocks"),
    0x00,
    0,
    ...name("controlBlocks"),
    0x00,
    1,
  ]),
  ...section(10, [2, ...DIGIT_BLOCKS, ...CONTROL_BLOCKS]),
]);

interface SimdScan {
  memory: Uint8Array;
  digitBlocks: (length: number) => number;
  controlBlocks: (length: number) => number;
}

/**
 * The compiled module, or undefined where WebAssembly or its SIMD is not available (node
 * --jitless, say): the bytes are then all looked at by the loops after scanBlocks.
 */
const simd = instantiate();

/** Whether the scans run in WebAssembly here. */
export function scansInWebAssembly(): boolean {
  return simd !== undefined;
}

function instantiate(): SimdScan | undefined {
  const wasm = (globalThis as { WebAssembly?: WebAssemblyApi }).WebAssembly;
  if (wasm === undefined || !wasm.validate(MODULE_BYTES)) return undefined;
  const { exports } = new wasm.Instance(new wasm.Module(MODULE_BYTES));
  return {
    memory: new Uint8Array((exports.memory as { buffer: ArrayBuffer }).buffer),
    digitBlocks: exports.digitBlocks as (length: number) => number,
    controlBlocks: exports.controlBlocks as (length: number) => number,
  };
}

/** The little of WebAssembly used here (TypeScript declares it only with the DOM's types). */
interface WebAssemblyApi {
  validate(bytes: Uint8Array): boolean;
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object) => { exports: Record<string, unknown> };
}
