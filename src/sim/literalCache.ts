/**
 * Encoded JSON string literals ("...", quotes included) of the few strings records repeat: user ids,
 * emails, tokens, user agents, origins, methods, IPs. Copying bytes is much cheaper than scanning and
 * escaping the same string for every record. Only pass strings from bounded pools.
 */
export class LiteralCache {
  readonly #encoded = new Map<string, Uint8Array>();

  literal(text: string): Uint8Array {
    let bytes = this.#encoded.get(text);
    if (bytes === undefined) {
      bytes = new Uint8Array(Buffer.from(JSON.stringify(text), "utf8"));
      this.#encoded.set(text, bytes);
    }
    return bytes;
  }
}
