import { escapeHtml as esc } from "./escapeHtml.js";
import { breakable } from "./htmlParts.js";

export interface BarRow {
  label: string;
  value: number;
  /** Text shown at the end of the bar (an amount to the cent). */
  text: string;
  /** Whether the text is an amount: marked data-money, as every amount of the page is. */
  money?: boolean;
  /** A colour of the page's palette (htmlParts), never data. */
  color: string;
  /** The tooltip: the full label and the exact figures. */
  title: string;
}

/**
 * Horizontal bars, one row each, largest first as given, laid out by the stylesheet (class
 * "bars"): label, bar and value on one line on a wide page, the label above its bar on a
 * narrow one, so a phone shows every bar and figure without scrolling. HTML rather than SVG: the
 * labels wrap instead of being cut, and the text keeps the page's size. Each bar has class "mark".
 */
export function barChart(options: { title: string; rows: BarRow[] }): string {
  const max = Math.max(0, ...options.rows.map((row) => row.value));
  const head = `<div class="bars" role="img" aria-label="${esc(options.title)}">`;
  if (options.rows.length === 0 || max <= 0) {
    return `${head}<p class="note empty">no data in this period</p></div>`;
  }
  const rows = options.rows.map((row) => {
    // A value above zero stays visible: at least a sliver of the track.
    const share = row.value > 0 ? Math.max(0.3, (100 * row.value) / max) : 0;
    // The row is no box of its own (its cells share the chart's columns): each cell has the tooltip.
    const title = `title="${esc(row.title)}"`;
    return (
      `<div class="bar-row">` +
      `<span class="bar-label" ${title}>${breakable(row.label)}</span>` +
      `<span class="bar-track" ${title}><span class="mark" style="width:${share.toFixed(2)}%;background:${esc(row.color)}"></span></span>` +
      `<span class="bar-value"${row.money === true ? " data-money" : ""} ${title}>${esc(row.text)}</span></div>`
    );
  });
  return `${head}${rows.join("")}</div>`;
}
