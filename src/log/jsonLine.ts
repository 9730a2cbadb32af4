/**
 * One value as one line of JSON (JSON Lines: compact, no line break inside). JSON.stringify escapes
 * U+0000-U+001F but leaves DEL and the C1 controls (U+0080-U+009F, where U+009B is a one-character
 * CSI) raw; escaped, the line parses to the same values and nothing in it drives a terminal.
 */
export function jsonLine(value: unknown): string {
  return JSON.stringify(value).replace(
    /[\u007f-\u009f\u2028\u2029]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}
