import { cents } from "./cents.js";
import type { CreditFigures } from "./readBalanceFigures.js";
import { groupDigits } from "./usd.js";

/** What the burn rate was measured from, in words. */
export function burnSourceText(source: CreditFigures["burn_source"]): string {
  if (source === "snapshots") return "the credits consumed between balance snapshots of the last 30 days";
  if (source === "api_calls") return "the priced spend of the stored calls of the last 30 days";
  return "no burn measured yet";
}

/** The same, short enough for a terminal line beside the rate. */
function burnSourceShort(source: CreditFigures["burn_source"]): string {
  if (source === "snapshots") return "from balance snapshots of the last 30 days";
  if (source === "api_calls") return "from the priced calls of the last 30 days";
  return "no burn measured yet";
}

/** Credits with nothing left: the runway view gives them 0 days, out by the latest snapshot. */
export function usedUp(credits: CreditFigures): boolean {
  return /^0(?:\.0*)?$/.test(credits.remaining_usd);
}

/** When the credits run out, in words: a day, used up, or none in sight. */
export function runwayText(credits: CreditFigures): string {
  if (usedUp(credits)) return `used up: none left at the snapshot of ${credits.taken_at.slice(0, 10)}`;
  if (credits.runs_out_on === null)
    return credits.burn_usd_per_day !== null && !/^0(?:\.0*)?$/.test(credits.burn_usd_per_day)
      ? "no run-out date: the monthly allowance keeps up with the burn"
      : "no run-out date: nothing is being consumed";
  return `runs out on ${credits.runs_out_on}, in ${credits.runway_days} days at this rate`;
}

/**
 * The credits block of the terminal report: what is left in USD and in credits, when the monthly
 * ones refresh, the burn, and when it runs out, one fact a line so that it fits 80 columns.
 */
export function creditLines(credits: CreditFigures): string[] {
  const burn =
    credits.burn_usd_per_day === null ? "burn unknown" : `burn ${cents(credits.burn_usd_per_day)} USD/day`;
  const refresh =
    credits.monthly_refresh_at === null
      ? []
      : [
          `          monthly credits refresh ${credits.monthly_refresh_at.slice(0, 10)}` +
            (credits.monthly_allowance_usd === undefined
              ? ""
              : ` to ${cents(credits.monthly_allowance_usd)} USD`),
        ];
  return [
    `credits   ${cents(credits.remaining_usd)} USD left at ${credits.taken_at}`,
    `          monthly ${cents(credits.monthly_usd)} + stable ${cents(credits.stable_usd)}`,
    `          (${groupDigits(credits.monthly_credits)} + ${groupDigits(credits.stable_credits)} credits)`,
    ...refresh,
    `          ${burn}, ${burnSourceShort(credits.burn_source)}`,
    `          ${runwayText(credits)}`,
  ];
}
