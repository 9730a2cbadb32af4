/**
 * Seeded randomness for the simulator. Every simulated record is a pure function of
 * (seed, index, salt): there is no shared generator state, so any record can be produced on its own,
 * in any order, in O(1), and the same seed always yields the same data.
 */

/** murmur3's 32-bit finaliser: a fast bijective mixer with good avalanche. */
export function fmix32(input: number): number {
  let h = input >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** A 32-bit hash of (seed, index, salt). */
export function hash32(seed: number, index: number, salt: number): number {
  const a = fmix32(seed ^ Math.imul(salt, 0x9e3779b1));
  return fmix32(a ^ Math.imul(index | 0, 0x27d4eb2f) ^ Math.imul((index / 0x100000000) | 0, 0x165667b1));
}

/** A float in [0, 1) from (seed, index, salt). */
export function unit(seed: number, index: number, salt: number): number {
  return hash32(seed, index, salt) / 0x100000000;
}

/** A log-uniform value in [min, max): many small values, a few large ones, like real run times. */
export function logBetween(seed: number, index: number, salt: number, min: number, max: number): number {
  return min * (max / min) ** unit(seed, index, salt);
}

/** One element of a non-empty list. */
export function pick<T>(list: readonly T[], seed: number, index: number, salt: number): T {
  const value = list[Math.floor(unit(seed, index, salt) * list.length)];
  if (value === undefined) throw new RangeError("pick() needs a non-empty list");
  return value;
}

/**
 * A weighted choice: `weights[k]` is the relative weight of option k. Returns the chosen k.
 * `total` is passed in so hot paths precompute it once.
 */
export function weightedIndex(weights: readonly number[], total: number, u: number): number {
  let target = u * total;
  for (let k = 0; k < weights.length; k++) {
    target -= weights[k] ?? 0;
    if (target < 0) return k;
  }
  return weights.length - 1;
}

const HEX: readonly string[] = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, "0"));

/** Eight lowercase hex digits of a 32-bit word. */
export function hex32(word: number): string {
  const w = word >>> 0;
  return `${HEX[w >>> 24]}${HEX[(w >>> 16) & 0xff]}${HEX[(w >>> 8) & 0xff]}${HEX[w & 0xff]}`;
}

/** Formats 16 bytes, given as four big-endian 32-bit words, as a hyphenated lowercase UUID. */
export function formatUuid(a: number, b: number, c: number, d: number): string {
  return (
    `${HEX[a >>> 24]}${HEX[(a >>> 16) & 0xff]}${HEX[(a >>> 8) & 0xff]}${HEX[a & 0xff]}-` +
    `${HEX[b >>> 24]}${HEX[(b >>> 16) & 0xff]}-${HEX[(b >>> 8) & 0xff]}${HEX[b & 0xff]}-` +
    `${HEX[c >>> 24]}${HEX[(c >>> 16) & 0xff]}-${HEX[(c >>> 8) & 0xff]}${HEX[c & 0xff]}` +
    `${HEX[d >>> 24]}${HEX[(d >>> 16) & 0xff]}${HEX[(d >>> 8) & 0xff]}${HEX[d & 0xff]}`
  );
}

/**
 * Fills `out` with the words of a version-4-shaped UUID (version nibble 4, RFC 4122 variant bits).
 * The last word is kept intact so callers can embed a recoverable value in the last 8 hex digits.
 */
export function uuidV4Words(w0: number, w1: number, w2: number, w3: number, out: Uint32Array): Uint32Array {
  out[0] = w0;
  out[1] = (w1 & 0xffff0fff) | 0x4000;
  out[2] = (w2 & 0x3fffffff) | 0x80000000;
  out[3] = w3;
  return out;
}

/** Fills `out` with a version-7-shaped UUID (RFC 9562): 48-bit unix milliseconds, then random bits. */
export function uuidV7Words(
  unixMs: number,
  w1: number,
  w2: number,
  w3: number,
  out: Uint32Array,
): Uint32Array {
  const ms = Math.floor(unixMs);
  out[0] = Math.floor(ms / 0x10000);
  out[1] = ((ms % 0x10000) << 16) | (w1 & 0x0fff) | 0x7000;
  out[2] = (w2 & 0x3fffffff) | 0x80000000;
  out[3] = w3;
  return out;
}

/** A version-4-shaped UUID string from four 32-bit words. */
export function uuidV4(w0: number, w1: number, w2: number, w3: number): string {
  const words = uuidV4Words(w0, w1, w2, w3, new Uint32Array(4));
  return formatUuid(words[0] ?? 0, words[1] ?? 0, words[2] ?? 0, words[3] ?? 0);
}

export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A small sequential PRNG (mulberry32). Used only where a stream of draws is wanted, such as the
 * fault injector: it is seeded on its own so a run's faults are reproducible.
 */
export class Mulberry32 {
  #state: number;

  constructor(seed: number) {
    this.#state = seed >>> 0;
  }

  next(): number {
    this.#state = (this.#state + 0x6d2b79f5) >>> 0;
    let t = this.#state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 0x100000000;
  }
}
