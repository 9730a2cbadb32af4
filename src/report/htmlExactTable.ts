import { cents, signedCents } from "./cents.js";
import { escapeHtml as esc } from "./escapeHtml.js";
import { breakable, type ColumnKind } from "./htmlParts.js";

/** A table cell: plain text, or text with the exact value a reader sees on hover. */
export type Cell = string | { text: string; title: string };

/** An amount to the cent, its exact value (as stored, USD) on hover. */
export function money(decimal: string): Cell {
  return { text: cents(decimal), title: `${decimal} USD` };
}

/** A difference to the cent with its sign, its exact value on hover. */
export function signedMoney(decimal: string): Cell {
  return { text: signedCents(decimal), title: `${decimal} USD` };
}

/**
 * A table like htmlParts' `table`, whose cells may carry a title: the page's tables show cents and
 * the exact micro-dollar value on hover. In its own scroll container, as every table of the page.
 */
export function exactTable(headers: string[], rows: Cell[][], kinds: ColumnKind[]): string {
  const cell = (tag: "th" | "td", value: Cell, i: number) => {
    const kind = kinds[i] ?? "wrap";
    const text = typeof value === "string" ? value : value.text;
    const title = typeof value === "string" ? "" : ` title="${esc(value.title)}"`;
    return `<${tag} class="${kind}"${title}>${kind === "wrap" ? breakable(text) : esc(text)}</${tag}>`;
  };
  return `<div class="scroll"><table><thead><tr>${headers.map((h, i) => cell("th", h, i)).join("")}</tr></thead><tbody>${rows
    .map((row) => `<tr>${row.map((value, i) => cell("td", value, i)).join("")}</tr>`)
    .join("")}</tbody></table></div>`;
}
