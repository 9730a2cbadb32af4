import { counted } from "../log/plural.js";
import { printable } from "../log/printable.js";
import { ellipsis, padEndTo, padStartTo, TERMINAL_COLUMNS, textWidth } from "../log/terminalText.js";
import { cents } from "./cents.js";
import { escapeHtml as esc } from "./escapeHtml.js";
import type { ReportFigures } from "./figures.js";
import { exactTable, money } from "./htmlExactTable.js";
import { memberName, type SpenderFigures, tokenLabelName, tokenMatchText } from "./readSpenderFigures.js";
import { groupCount, percent } from "./usd.js";

/** Rows of each list the terminal shows; --json and the page have them all. */
const TERMINAL_ROWS = 10;

/**
 * The terminal block: spend per person and per token label (nothing for an older database), in
 * cents (exact in --json), counts whole; a name too long for the line ends in an ellipsis.
 */
export function spenderLines(figures: ReportFigures): string[] {
  const spenders: SpenderFigures | null = figures.spenders;
  if (spenders === null || figures.totals.calls === 0) return [];
  const block = (title: string, rows: { name: string; calls: number; cost_usd: string }[]) => {
    const shown = rows.slice(0, TERMINAL_ROWS);
    const width = Math.max(...shown.map((row) => textWidth(cents(row.cost_usd))));
    const calls = Math.max(9, ...shown.map((row) => textWidth(groupCount(row.calls))));
    return [
      title,
      ...shown.map((row) => {
        const count = padEndTo(counted(padStartTo(groupCount(row.calls), calls), "call"), calls + 6);
        const figures = `  ${padStartTo(cents(row.cost_usd), width)} USD  ${count}  `;
        return figures + ellipsis(printable(row.name), TERMINAL_COLUMNS - textWidth(figures));
      }),
      ...(rows.length > shown.length ? [`  ... ${rows.length - shown.length} more (--json, --html)`] : []),
    ];
  };
  return [
    "",
    ...block(
      "spend per person",
      spenders.per_member.map((row) => ({
        ...row,
        name: memberName(row) + (row.role === null ? "" : ` (${row.role})`),
      })),
    ),
    "",
    ...block(
      "spend per token label",
      spenders.per_token_label.map((row) => ({ ...row, name: tokenLabelName(row) })),
    ),
    `  ${tokenMatchText(spenders.token_match)}`,
  ];
}

/** The page's section: two tables, each summing to the period's spend. */
export function spenderSection(figures: ReportFigures): string {
  const spenders = figures.spenders;
  if (spenders === null || figures.totals.calls === 0) return "";
  // In a scroll container, as every table of the page: at 400 px the amounts would push it past.
  const table = (head: string, rows: { name: string; calls: number; cost_usd: string }[]) =>
    exactTable(
      [head, "Calls", "Share of calls", "USD"],
      rows.map((row) => [
        row.name,
        groupCount(row.calls),
        percent(row.calls, figures.totals.calls),
        money(row.cost_usd),
      ]),
      ["wrap", "num", "num", "num"],
    );
  return `<section><h2>Who spent it</h2>${table(
    "Person",
    spenders.per_member.map((row) => ({
      ...row,
      name: memberName(row) + (row.role === null ? "" : ` (${row.role})`),
    })),
  )}${table(
    "Token label (matched on the token's last 4 characters)",
    spenders.per_token_label.map((row) => ({ ...row, name: tokenLabelName(row) })),
  )}<p class="note">${esc(`Token attribution is a match on the token's last 4 characters, all the API shows of a token: ${tokenMatchText(spenders.token_match)} (${percent(spenders.token_match.ambiguous_calls, spenders.token_match.calls)} ambiguous, ${percent(spenders.token_match.unmatched_calls, spenders.token_match.calls)} unmatched). Ambiguous and unmatched calls are groups of their own, so each table sums to the spend. Amounts to the cent; hover for the exact value.`)}</p></section>`;
}
