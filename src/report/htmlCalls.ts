import { cents } from "./cents.js";
import { escapeHtml as esc } from "./escapeHtml.js";
import type { CallFigure, ReportFigures } from "./figures.js";
import { breakable } from "./htmlParts.js";

export function callsSection(figures: ReportFigures): string {
  const note = figures.emails_shown
    ? ""
    : `<p class="note">Email addresses are personal data and not shown; <code>--show-email</code> adds them.</p>`;
  return `<section><h2>Most expensive calls</h2>${callsTable(figures.most_expensive_calls, figures.emails_shown)}${note}</section>`;
}

/** A column of the calls table: its header, its class (layout and place on a phone) and its cell. */
interface Column {
  header: string;
  /** "num", "nowrap" or "wrap" as in every table, then the cell's name (the stylesheet's grid area). */
  className: string;
  /** The cell's attributes and inner HTML, escaped. */
  cell: (call: CallFigure) => { attributes: string; html: string };
}

/** Text cut with an ellipsis past two lines (one on a phone): the whole of it on hover. */
const hover = (text: string) => ({
  attributes: ` title="${esc(text)}"`,
  html: `<span class="clamp">${breakable(text)}</span>`,
});

/**
 * The most expensive calls, to the cent (exact on hover and in --json), every data field escaped,
 * emails only when asked for. On a wide page a table of one line a call (two for a long template,
 * cut there); on a phone (class
 * "compact") each call takes two lines: price, time and id, then method, template and status, the
 * id and template cut with an ellipsis and whole on hover, the time without its microseconds.
 */
function callsTable(calls: CallFigure[], emails: boolean): string {
  if (calls.length === 0) return `<p class="note">No priced calls in this period.</p>`;
  const columns: Column[] = [
    {
      header: "price USD",
      className: "num c-price",
      cell: (call) => ({
        attributes: ` data-money title="${esc(`${call.price_usd} USD`)}"`,
        html: esc(`${cents(call.price_usd)}${call.billing_pending ? " (pending)" : ""}`),
      }),
    },
    {
      header: "created (UTC)",
      className: "nowrap c-created",
      cell: (call) => {
        const [seconds = "", fraction = ""] = call.created_at.replace("T", " ").replace("Z", "").split(".");
        const micro = fraction === "" ? "" : `<span class="frac">.${esc(fraction)}</span>`;
        return { attributes: ` title="${esc(call.created_at)}"`, html: `${esc(seconds)}${micro}` };
      },
    },
    {
      header: "method",
      className: "nowrap c-method",
      cell: (call) => ({ attributes: "", html: esc(call.method) }),
    },
    {
      header: "endpoint template",
      className: "wrap c-template",
      cell: (call) => hover(call.endpoint_template ?? "(no template)"),
    },
    {
      header: "status",
      className: "num c-status",
      cell: (call) => ({ attributes: "", html: call.status_code === null ? "-" : String(call.status_code) }),
    },
    ...(emails
      ? [{ header: "email", className: "wrap c-email", cell: (call: CallFigure) => hover(call.email ?? "-") }]
      : []),
    // One line a call on a wide page; an email column leaves no room for the whole id there.
    { header: "call id", className: `${emails ? "wrap" : "nowrap"} c-id`, cell: (call) => hover(call.id) },
  ];
  const head = columns.map((column) => `<th class="${column.className}">${esc(column.header)}</th>`);
  const rows = calls.map((call) => {
    const cells = columns.map((column) => {
      const { attributes, html } = column.cell(call);
      return `<td class="${column.className}"${attributes}>${html}</td>`;
    });
    return `<tr>${cells.join("")}</tr>`;
  });
  return `<div class="scroll"><table class="compact"><thead><tr>${head.join("")}</tr></thead><tbody>${rows.join("")}</tbody></table></div>`;
}
