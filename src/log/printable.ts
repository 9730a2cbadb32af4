/** Control characters (a terminal escape sequence in an endpoint, say) shown as U+FFFD. */
export function printable(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching them is the point.
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, "\uFFFD");
}

/** `printable` line by line: for text whose line breaks are its layout (a message, a summary). */
export function printableLines(text: string): string {
  return text.split("\n").map(printable).join("\n");
}
