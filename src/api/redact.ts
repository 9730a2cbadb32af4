/**
 * Secrets never appear in full in a message or log: the API token (a credential) and page tokens
 * (they encode the position in a user's history and are accepted without a second factor).
 */

/** Keeps a short prefix so two tokens can be told apart in a log, never enough to use one. */
export function redactSecret(secret: string): string {
  if (secret.length <= 8) return "[redacted]";
  return `${secret.slice(0, 4)}…[redacted]`;
}

/**
 * The path and query of a URL for messages and logs, the `page_token` value shown as `[redacted]`.
 * The mark is put in after the query is encoded, so that it reads as written, not as
 * `%5Bredacted%5D`; a page token's first characters are the same for every token (base64 of
 * `{"v`), so no prefix of it is kept.
 */
export function describeUrl(url: URL): string {
  // Most requests (an operation, a listing's first page) have nothing to shorten: no copy to parse.
  if (url.search === "") return url.pathname;
  const shown = new URL(url.toString());
  if (!shown.searchParams.has("page_token")) return `${shown.pathname}${shown.search}`;
  shown.searchParams.set("page_token", "REDACTED");
  return `${shown.pathname}${shown.search.replace("page_token=REDACTED", "page_token=[redacted]")}`;
}

/**
 * Removes every occurrence of the given secrets from a free text (an API message, a cause), each
 * replaced by `mask` of it (by default a prefix that tells tokens apart in a log).
 */
export function scrubText(
  text: string,
  secrets: readonly string[],
  mask: (secret: string) => string = redactSecret,
): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length > 0) out = out.split(secret).join(mask(secret));
  }
  return out;
}
