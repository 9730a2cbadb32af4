const ENTITIES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/**
 * Escapes text for HTML and SVG, in element content and in quoted attribute values alike. Every
 * string that comes from the data (endpoints, emails, errors, reasons) goes through it.
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ENTITIES[char] ?? char);
}

/**
 * JSON for a terminal: JSON.stringify escapes U+0000-U+001F but leaves DEL and the C1 controls
 * (U+0080-U+009F, where U+009B is a one-character CSI) raw. Escaped, the JSON parses to the same
 * values and nothing in it drives the terminal.
 */
export function jsonForTerminal(value: unknown): string {
  return JSON.stringify(value, null, 2).replace(
    /[\u007f-\u009f]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}
