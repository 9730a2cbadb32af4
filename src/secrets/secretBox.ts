import { createCipheriv, createDecipheriv, createHmac, randomBytes } from "node:crypto";

/**
 * Keyed hashing and sealing with the export's secret key.
 * - `hash`: HMAC-SHA256, so a credential id (`token`) or an email can be grouped and joined on
 *   without being readable, and cannot be confirmed by hashing guesses without the key.
 * - `seal`/`open`: AES-256-GCM for page tokens kept in the checkpoint; a stored token is a position
 *   in a user's history that the API accepts as is, so it is not kept in the clear.
 */
export class SecretBox {
  private readonly hashKey: Buffer;
  private readonly sealKey: Buffer;
  private readonly hashes = new Map<string, string>();
  /**
   * What a database records of the key its hashes and sealed tokens are made with (warehouseKey.ts):
   * an HMAC of a text of its own, which tells one key from another and reveals neither the key nor
   * the subkeys. A guess at the key can be tried against it as against any sealed page token.
   */
  readonly keyCheck: string;

  constructor(key: Buffer) {
    // Separate subkeys: a hash output can never be used to attack the cipher, or the reverse.
    this.hashKey = createHmac("sha256", key).update("zoo-usage hash v1").digest();
    this.sealKey = createHmac("sha256", key).update("zoo-usage seal v1").digest();
    this.keyCheck = createHmac("sha256", key).update("zoo-usage key check v1").digest("hex");
  }

  hash(value: string): string {
    // A user has a handful of tokens and one email, repeated on every call: an HMAC per record
    // costs several times a lookup. Bounded, so odd data cannot grow it without limit.
    let digest = this.hashes.get(value);
    if (digest === undefined) {
      digest = createHmac("sha256", this.hashKey).update(value).digest("hex");
      if (this.hashes.size >= 10_000) this.hashes.clear();
      this.hashes.set(value, digest);
    }
    return digest;
  }

  seal(plaintext: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", this.sealKey, iv);
    const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
    return `v1.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url")}`;
  }

  /** The plaintext, or undefined when the value was sealed with another key or was altered. */
  open(sealed: string): string | undefined {
    if (!sealed.startsWith("v1.")) return undefined;
    const raw = Buffer.from(sealed.slice(3), "base64url");
    if (raw.length < 28) return undefined;
    try {
      const decipher = createDecipheriv("aes-256-gcm", this.sealKey, raw.subarray(0, 12));
      decipher.setAuthTag(raw.subarray(12, 28));
      return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8");
    } catch {
      return undefined;
    }
  }
}
