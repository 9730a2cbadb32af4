import { burnSourceText, runwayText, usedUp } from "./creditsTerminal.js";
import { escapeHtml as esc } from "./escapeHtml.js";
import { card, table } from "./htmlParts.js";
import type { CreditFigures } from "./readBalanceFigures.js";
import { centsHeadline, groupDigits } from "./usd.js";

/**
 * The credits section of the HTML page; "" when the database has no balance snapshot. What is
 * left is a headline to the cent like the page's other money figures, with the exact values in the
 * table beneath.
 */
export function creditsSection(credits: CreditFigures | null): string {
  if (credits === null) return "";
  const rows: string[][] = [
    ["Remaining", `${groupDigits(credits.remaining_usd)} USD`],
    [
      "Monthly credits",
      `${groupDigits(credits.monthly_usd)} USD (${groupDigits(credits.monthly_credits)} credits)`,
    ],
    [
      "Stable credits",
      `${groupDigits(credits.stable_usd)} USD (${groupDigits(credits.stable_credits)} credits)`,
    ],
    ["Monthly refresh", credits.monthly_refresh_at ?? "-"],
    [
      "Monthly allowance",
      credits.monthly_allowance_usd === null ? "-" : `${groupDigits(credits.monthly_allowance_usd)} USD`,
    ],
    [
      "Burn per day",
      credits.burn_usd_per_day === null ? "-" : `${groupDigits(credits.burn_usd_per_day)} USD`,
    ],
    ["Runs out on", usedUp(credits) ? "used up" : (credits.runs_out_on ?? "-")],
    ["Days left", credits.runway_days === null ? "-" : String(credits.runway_days)],
  ];
  const headline = card(
    "Credits left",
    centsHeadline(credits.remaining_usd),
    runwayText(credits),
    `${credits.remaining_usd} USD`,
  );
  return `<section><h2>API credits</h2><div class="cards">${headline}</div><p>${esc(
    `At the latest balance snapshot (${credits.taken_at}); the burn is ${burnSourceText(credits.burn_source)}, refreshes and grants excluded. The runway follows the ledger: monthly credits are spent first and what is left at their refresh expires, the allowance comes back each month, stable credits pay the rest.`,
  )}</p>${table(["", "value"], rows, ["nowrap", "num"])}</section>`;
}
