import { escapeHtml as esc } from "./escapeHtml.js";

export const COLORS = { spend: "#2563eb", ok: "#94a3b8", failed: "#dc2626", other: "#cbd5e1" } as const;

/** Operation statuses as the API names them (AsyncApiCallOutput.status); others get a neutral colour. */
const STATUS_COLORS: Record<string, string> = {
  completed: "#16a34a",
  failed: "#dc2626",
  in_progress: "#f59e0b",
  queued: "#a78bfa",
  uploaded: "#38bdf8",
};

export function statusColor(status: string | null): string {
  return STATUS_COLORS[status ?? ""] ?? "#64748b";
}

export function legend(items: [string, string][]): string {
  return `<ul class="legend">${items
    .map(([name, color]) => `<li><span style="background:${color}"></span>${esc(name)}</li>`)
    .join("")}</ul>`;
}

/** How a column lays out: right-aligned numbers, unbroken text (dates), or text that may wrap. */
export type ColumnKind = "num" | "nowrap" | "wrap";

/**
 * Escaped text with a line-break opportunity after each "/" and before each "@", so a narrow column
 * breaks a path or an address between its parts rather than inside a word. The markup goes in after
 * escaping, and no entity contains either character.
 */
export function breakable(text: string): string {
  return esc(text).replace(/\//g, "/<wbr>").replace(/@/g, "<wbr>@");
}

/**
 * A headline figure: its name, the value, a note, and for an amount (money to the cent) the exact
 * value as a tooltip; an amount is marked data-money, as the tables' amounts are.
 */
export function card(key: string, value: string, note: string, exact = ""): string {
  // --chars lets the stylesheet size a long figure down to fit its card on one line.
  return `<div class="card"><div class="k">${esc(key)}</div><div class="v" style="--chars:${value.length}"${
    exact === "" ? "" : ` data-money title="${esc(exact)}"`
  }>${esc(value)}</div><div class="n">${esc(note)}</div></div>`;
}
