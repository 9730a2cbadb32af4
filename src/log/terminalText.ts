import stringWidth from "string-width";

/**
 * Laying out human output for a terminal: the narrowest one people use has 80 columns, and a line
 * wider than the terminal wraps wherever it happens to end. Widths are display columns as a
 * terminal draws them (string-width: East Asian Wide and Fullwidth characters and most emoji take
 * two, combining marks and zero-width joiners none), so a CJK or emoji name keeps a table aligned.
 * Text is cut between grapheme clusters, never inside one (a flag, a family emoji, an accent).
 */
export const TERMINAL_COLUMNS = 80;

/** The columns a text takes (what printable() leaves has no control characters). */
export function textWidth(text: string): number {
  return stringWidth(text);
}

const GRAPHEMES = new Intl.Segmenter("en", { granularity: "grapheme" });

/** The text's grapheme clusters: what a reader sees as one character. */
function graphemes(text: string): string[] {
  return Array.from(GRAPHEMES.segment(text), (part) => part.segment);
}

/** The longest start of the text that takes at most `width` columns, and the rest. */
function splitAtWidth(text: string, width: number): [string, string] {
  let used = 0;
  let head = "";
  const parts = graphemes(text);
  for (const [i, part] of parts.entries()) {
    used += textWidth(part);
    if (used > width) return [head, parts.slice(i).join("")];
    head += part;
  }
  return [head, ""];
}

/** Pads on the right to `width` columns (padEnd counts UTF-16 units, not columns). */
export function padEndTo(text: string, width: number): string {
  return text + " ".repeat(Math.max(0, width - textWidth(text)));
}

/** Pads on the left to `width` columns. */
export function padStartTo(text: string, width: number): string {
  return " ".repeat(Math.max(0, width - textWidth(text))) + text;
}

/**
 * The text cut to at most `width` columns, its last column an ellipsis when anything was cut (a
 * wide character that would straddle the edge goes too, so the result may be a column short).
 */
export function ellipsis(text: string, width: number): string {
  if (textWidth(text) <= width) return text;
  return width <= 0 ? "" : `${splitAtWidth(text, width - 1)[0]}…`;
}

/**
 * One line re-wrapped at spaces to fit `columns`, continuation lines starting with `indent` (a
 * hanging indent under the text after a label). Spaces inside the first line (a label's padding)
 * are kept. A word wider than a whole line is split only with `breakWords`: a path the user copies
 * stays whole on a line of its own instead.
 */
export function wrapLine(
  line: string,
  indent: string,
  options: { columns?: number; breakWords?: boolean } = {},
): string[] {
  const columns = options.columns ?? TERMINAL_COLUMNS;
  if (textWidth(line) <= columns) return [line];
  const hanging = textWidth(indent) < columns / 2 ? indent : "";
  const tokens = line.match(/ *[^ ]+ */g) ?? [line];
  const lines: string[] = [];
  let current = "";
  for (const token of tokens) {
    const hasText = current.trim() !== "";
    if (hasText && textWidth(current + token.trimEnd()) > columns) {
      lines.push(current.trimEnd());
      current = hanging;
    }
    current += token;
    while (options.breakWords === true && textWidth(current.trimEnd()) > columns) {
      const [head, rest] = splitAtWidth(current, columns);
      // A line narrower than one wide character still takes one, or the loop would not end.
      const [line, next] = head === "" ? splitAtWidth(current, columns + 1) : [head, rest];
      lines.push(line);
      current = hanging + next;
    }
  }
  if (current.trim() !== "") lines.push(current.trimEnd());
  return lines;
}

/**
 * Parts joined by ", " after `head`, as many to a line as fit `columns`, later lines starting with
 * `indent`: for a list whose items must not be split across lines ("scan 1.5 s").
 */
export function packParts(
  head: string,
  parts: string[],
  indent: string,
  columns = TERMINAL_COLUMNS,
): string[] {
  const pieces = parts.map((part, i) => (i < parts.length - 1 ? `${part},` : part));
  const lines: string[] = [];
  let current = head;
  for (const [i, piece] of pieces.entries()) {
    if (i > 0 && textWidth(`${current} ${piece}`) > columns) {
      lines.push(current);
      current = indent + piece;
    } else {
      current += i > 0 ? ` ${piece}` : piece;
    }
  }
  lines.push(current);
  return lines;
}
