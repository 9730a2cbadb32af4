/** Control characters (a terminal escape sequence in an endpoint, say) shown as U+FFFD. */
export function printable(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching them is the point.
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, "\uFFFD");
}

/** `printable` line by line: for text whose line breaks are its layout (a message, a summary). */
export function printableLines(text: string): string {
  return text.split("\n").map(printable).join("\n");
}

const REDACTED = "[redacted]";

/**
 * Credentials by their shape, whoever's they are: a presigned URL's query (the session token, the
 * key id with its scope, the signature), the same names as headers, and an Authorization header's
 * whole value. A store's error message may echo any of them back.
 */
const CREDENTIAL_SHAPES: readonly RegExp[] = [
  /\b(x-amz-(?:security-token|credential|signature))(\s*"?\s*(?:=|:|>|%3d)\s*"?)([^&\s"'<>,;]+)/gi,
  /\b(authorization)(\s*"?\s*[:=]\s*"?)([^\r\n"'<>]+)/gi,
];

/**
 * Characters that would change what a terminal or a log shows: C0 and C1 controls (ESC, BEL, a
 * line break that would forge a log line), DEL, the Unicode line and paragraph separators, and the
 * bidirectional overrides that reorder what is displayed.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching them is the point.
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

const NAMED_ESCAPES: Readonly<Record<string, string>> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

/**
 * Text from outside the program (a store's error message, an owner marker's fields, a rules file's
 * labels, the API's messages and data) as it may be shown: on one line, every control character
 * written visibly as an escape (`\n`, `\x1b`, `\u202e`), anything shaped like a credential and
 * every one of `secrets` (the run's own keys and tokens, also URL-encoded) replaced by
 * `[redacted]`. A text with none of these is returned unchanged.
 */
export function foreignText(text: string, secrets: readonly string[] = []): string {
  let shown = text;
  for (const secret of secrets) {
    if (secret.length === 0) continue;
    for (const form of new Set([secret, encodeURIComponent(secret)]))
      shown = shown.split(form).join(REDACTED);
  }
  for (const shape of CREDENTIAL_SHAPES) shown = shown.replace(shape, `$1$2${REDACTED}`);
  return shown.replace(CONTROL, escapeControl);
}

function escapeControl(character: string): string {
  const named = NAMED_ESCAPES[character];
  if (named !== undefined) return named;
  const code = character.charCodeAt(0);
  return code <= 0xff
    ? `\\x${code.toString(16).padStart(2, "0")}`
    : `\\u${code.toString(16).padStart(4, "0")}`;
}
