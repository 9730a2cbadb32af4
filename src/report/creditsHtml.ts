import { burnSourceText } from "./creditsTerminal.js";
import { escapeHtml as esc } from "./escapeHtml.js";
import { table } from "./htmlParts.js";
import type { CreditFigures } from "./readBalanceFigures.js";
import { groupDigits } from "./usd.js";

/** The credits section of the HTML page; "" when the database has no balance snapshot. */
export function creditsSection(credits: CreditFigures | null): string {
  if (credits === null) return "";
  const rows: string[][] = [
    ["Remaining", `${groupDigits(credits.remaining_usd)} USD`],
    ["Monthly credits", `${groupDigits(credits.monthly_usd)} USD`],
    ["Stable credits", `${groupDigits(credits.stable_usd)} USD`],
    [
      "Burn per day",
      credits.burn_usd_per_day === null ? "-" : `${groupDigits(credits.burn_usd_per_day)} USD`,
    ],
    ["Runs out on", credits.runs_out_on ?? "-"],
    ["Days left", credits.runway_days === null ? "-" : String(credits.runway_days)],
  ];
  return `<section><h2>API credits</h2><p>${esc(
    `At the latest balance snapshot (${credits.taken_at}); the burn is ${burnSourceText(credits.burn_source)}.`,
  )}</p>${table(["", "value"], rows, ["nowrap", "num"])}</section>`;
}
