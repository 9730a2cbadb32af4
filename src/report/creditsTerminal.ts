import type { CreditFigures } from "./readBalanceFigures.js";
import { groupDigits } from "./usd.js";

/** What the burn rate was measured from, in words. */
export function burnSourceText(source: CreditFigures["burn_source"]): string {
  if (source === "snapshots") return "the credits consumed between balance snapshots of the last 30 days";
  if (source === "api_calls") return "the priced spend of the stored calls of the last 30 days";
  return "no burn measured yet";
}

/** The credits block of the terminal report: what is left, the burn, and when it runs out. */
export function creditLines(credits: CreditFigures): string[] {
  const runway =
    credits.runs_out_on === null
      ? "no run-out date: nothing is being consumed"
      : `runs out on ${credits.runs_out_on} (${credits.runway_days} days at this rate)`;
  return [
    `credits   ${groupDigits(credits.remaining_usd)} USD left (monthly ${groupDigits(credits.monthly_usd)}, ` +
      `stable ${groupDigits(credits.stable_usd)}) at ${credits.taken_at}`,
    `  burn ${credits.burn_usd_per_day === null ? "-" : `${groupDigits(credits.burn_usd_per_day)} USD/day`}` +
      ` (${burnSourceText(credits.burn_source)}); ${runway}`,
  ];
}
