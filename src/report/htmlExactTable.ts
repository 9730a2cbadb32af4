import { cents, signedCents } from "./cents.js";
import { escapeHtml as esc } from "./escapeHtml.js";
import { breakable, type ColumnKind } from "./htmlParts.js";

/**
 * A table cell: plain text, or text with the exact value a reader sees on hover. `money` marks an
 * amount (attribute data-money): the browser test finds every one and measures that it is on screen.
 * `label` names the value on a phone when its column's header does not (a date in a column of USD).
 */
export type Cell = string | { text: string; title: string; money?: boolean; label?: string };

/** An amount to the cent, its exact value (as stored, in its currency) on hover. */
export function money(decimal: string, currency = "USD"): Cell {
  return { text: cents(decimal), title: `${decimal} ${currency}`, money: true };
}

/** A difference to the cent with its sign, its exact value on hover. */
export function signedMoney(decimal: string, currency = "USD"): Cell {
  return { text: signedCents(decimal), title: `${decimal} ${currency}`, money: true };
}

/** An amount to the cent inside a sentence, marked and with its exact value on hover like a cell. */
export function moneyText(decimal: string, currency = "USD"): string {
  return `<span data-money title="${esc(`${decimal} ${currency}`)}">${esc(cents(decimal))}</span>`;
}

/** The attributes of a cell's element: its title and the money mark. */
export function cellAttributes(value: Cell): string {
  if (typeof value === "string") return "";
  return `${value.money === true ? " data-money" : ""} title="${esc(value.title)}"`;
}

export function cellText(value: Cell): string {
  return typeof value === "string" ? value : value.text;
}

/**
 * A table of cells, each escaped here; `kinds[i]` lays out column i (default "wrap"). On a wide
 * page it is a table in its own scroll container. On a narrow one (class "stack") each row is a
 * block and each cell a line with its column's name (data-label) on the left and its value on the
 * right, so an amount sits beside its label instead of past the screen's edge. A first column of
 * text is the row's name (class "key"): it heads the block without a label. With `pairs` (a table
 * of a name and a value or two a row) a row stays one line there: the name, then each value.
 */
export function exactTable(
  headers: string[],
  rows: Cell[][],
  kinds: ColumnKind[],
  layout: "stack" | "pairs" = "stack",
): string {
  const kind = (i: number) => kinds[i] ?? "wrap";
  const classes = (i: number) => `${kind(i)}${i === 0 && kind(i) !== "num" ? " key" : ""}`;
  const content = (text: string, i: number) => (kind(i) === "wrap" ? breakable(text) : esc(text));
  const label = (value: Cell, i: number) =>
    (typeof value === "string" ? undefined : value.label) ?? headers[i] ?? "";
  const head = headers.map((text, i) => `<th class="${classes(i)}">${content(text, i)}</th>`).join("");
  const body = rows
    .map(
      (row) =>
        `<tr>${row
          .map(
            (value, i) =>
              `<td class="${classes(i)}" data-label="${esc(label(value, i))}"${cellAttributes(value)}>${content(cellText(value), i)}</td>`,
          )
          .join("")}</tr>`,
    )
    .join("");
  return `<div class="scroll"><table class="${layout === "pairs" ? "stack pairs" : "stack"}"><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table></div>`;
}
