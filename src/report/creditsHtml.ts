import { burnSourceText, runwayText, usedUp } from "./creditsTerminal.js";
import { escapeHtml as esc } from "./escapeHtml.js";
import { type Cell, exactTable, money } from "./htmlExactTable.js";
import { card } from "./htmlParts.js";
import type { CreditFigures } from "./readBalanceFigures.js";
import { centsHeadline, groupDigits } from "./usd.js";

/**
 * The credits section of the HTML page; "" when the database has no balance snapshot. What is
 * left is a headline to the cent like the page's other money figures; the table beneath shows
 * USD to the cent with the exact value on hover, and the credits as the API counts them.
 */
export function creditsSection(credits: CreditFigures | null): string {
  if (credits === null) return "";
  const usd = (decimal: string | null): Cell => (decimal === null ? "-" : money(decimal));
  // A day or a count in the column of amounts: on a phone it is not labelled USD.
  const day = (text: string | null): Cell => ({ text: text ?? "-", title: text ?? "-", label: "" });
  const rows: Cell[][] = [
    ["Remaining", usd(credits.remaining_usd), ""],
    ["Monthly credits", usd(credits.monthly_usd), groupDigits(credits.monthly_credits)],
    ["Stable credits", usd(credits.stable_usd), groupDigits(credits.stable_credits)],
    ["Monthly refresh", day(credits.monthly_refresh_at), ""],
    ["Monthly allowance", usd(credits.monthly_allowance_usd ?? null), ""],
    ["Burn per day", usd(credits.burn_usd_per_day), ""],
    ["Runs out on", day(usedUp(credits) ? "used up" : credits.runs_out_on), ""],
    ["Days left", day(credits.runway_days === null ? null : String(credits.runway_days)), ""],
  ];
  const headline = card(
    "Credits left",
    centsHeadline(credits.remaining_usd),
    runwayText(credits),
    `${credits.remaining_usd} USD`,
  );
  return `<section><h2>API credits</h2><div class="cards">${headline}</div><p>${esc(
    `At the latest balance snapshot (${credits.taken_at}); the burn is ${burnSourceText(credits.burn_source)}, refreshes and grants excluded. The runway follows the ledger: monthly credits are spent first and what is left at their refresh expires, the allowance comes back each month, stable credits pay the rest. USD to the cent; hover for the exact value.`,
  )}</p>${exactTable(["", "USD", "credits"], rows, ["nowrap", "num", "num"], "pairs")}</section>`;
}
