import { formatUuid, hash32, uuidV4, uuidV4Words, uuidV7Words } from "./random.js";
import { SALT } from "./salts.js";

const ID_MULTIPLIER = 0x2c1b3c6d;
/** Modular inverse of ID_MULTIPLIER mod 2^32 by Newton's iteration (each step doubles the bits). */
const ID_MULTIPLIER_INVERSE = (() => {
  let inv = ID_MULTIPLIER;
  for (let k = 0; k < 5; k++) inv = Math.imul(inv, 2 - Math.imul(ID_MULTIPLIER, inv));
  return inv >>> 0;
})();

/**
 * Call ids embed their index, scrambled, in the last 8 hex digits. That makes
 * GET /async/operations/{id} an O(1) lookup (decode, then regenerate and compare) without keeping a
 * map of a million ids in memory.
 */
export class CallIdentity {
  readonly #seed: number;
  readonly #mask: number;
  readonly #mask2: number;
  readonly #scratch = new Uint32Array(4);

  constructor(seed: number) {
    this.#seed = seed;
    this.#mask = hash32(seed, 0, SALT.idMask);
    this.#mask2 = hash32(seed, 0, SALT.idMask2);
  }

  /**
   * The id of call i as four 32-bit words, written into a scratch array owned by this instance (valid
   * until the next call). The spec's Uuid is "usually v4 or v7": roughly half are v7-shaped
   * (time-ordered, carrying created_at's milliseconds) and half v4-shaped, so clients assume neither.
   */
  idWords(i: number, createdUs: number): Uint32Array {
    const seed = this.#seed;
    const w1 = hash32(seed, i, SALT.idWord1);
    const w2 = hash32(seed, i, SALT.idWord2);
    const tail = (Math.imul((i ^ this.#mask) >>> 0, ID_MULTIPLIER) ^ this.#mask2) >>> 0;
    if (hash32(seed, i, SALT.idVersion) & 1)
      return uuidV7Words(createdUs / 1000, w1, w2, tail, this.#scratch);
    return uuidV4Words(hash32(seed, i, SALT.idWord3), w1, w2, tail, this.#scratch);
  }

  idOf(i: number, createdUs: number): string {
    const w = this.idWords(i, createdUs);
    return formatUuid(w[0] ?? 0, w[1] ?? 0, w[2] ?? 0, w[3] ?? 0);
  }

  /** The index a well-formed id would belong to; the caller must regenerate the id and compare. */
  candidateIndex(id: string): number {
    const tail = Number.parseInt(id.slice(-8), 16);
    return (Math.imul((tail ^ this.#mask2) >>> 0, ID_MULTIPLIER_INVERSE) ^ this.#mask) >>> 0;
  }
}

/** A uuid derived from (seed, index, salt): for user ids, token ids, conversation ids. */
export function derivedUuid(seed: number, index: number, salt: number): string {
  return uuidV4(
    hash32(seed, index, salt),
    hash32(seed, index, salt + 1000),
    hash32(seed, index, salt + 2000),
    hash32(seed, index, salt + 3000),
  );
}
