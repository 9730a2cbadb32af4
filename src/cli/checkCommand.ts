import type { Command } from "commander";
import { CHECK_DEFAULTS } from "../config/checkRules.js";
import { DEFAULT_DB } from "../config/databaseSetting.js";
import type { ExitCodeValue } from "../errors.js";
import { logFormatOption, withDefault } from "./flags.js";
import type { CliIo } from "./io.js";

/**
 * `zoo-usage check`: its flags and help. Rule values stay text (decimal amounts, never floats);
 * loadCheckConfig validates them and names the flag.
 */
export function addCheckCommand(program: Command, io: CliIo, done: (code: ExitCodeValue) => void): void {
  program
    .command("check")
    .description(
      "spend alerts for cron: budgets on actual and forecast spend, spikes, credits runway, invoice differences, unpaid, written-off, refunded and other-currency invoices, pending billing, a stale export; exit 1 when an alert is reported",
    )
    .option(
      "--db <path>",
      withDefault("DuckDB database file, opened read-only", `$ZOO_USAGE_DB, else ${DEFAULT_DB}`),
    )
    .option(
      "--rules <file>",
      withDefault(
        "the rules file (one rule a line, see docs/check.md); the flags below add or replace rules",
        "none",
      ),
    )
    .option(
      "--budget <usd>",
      withDefault("monthly budget in USD: alerts on actual and forecast spend of the month", "none"),
    )
    .option(
      "--budget-actual <percent>",
      withDefault("share of --budget the month-to-date spend may reach", CHECK_DEFAULTS.budgetActualPercent),
    )
    .option(
      "--budget-forecast <percent>",
      withDefault("share of --budget the month-end forecast may reach", CHECK_DEFAULTS.budgetForecastPercent),
    )
    .option(
      "--spike-factor <x>",
      withDefault("alert when the last complete day costs this many times its usual day", "none"),
    )
    .option("--spike-min <usd>", withDefault("and at least this much", CHECK_DEFAULTS.spikeMinUsd))
    .option(
      "--spike-baseline <baseline>",
      withDefault(
        "usual day: median of the same weekday in the 4 weeks before, at least the day's forecast (weekday), or of the 28 days before (28d)",
        CHECK_DEFAULTS.spikeBaseline,
      ),
    )
    .option("--runway-days <n>", withDefault("alert when the API credits run out in fewer days", "none"))
    .option(
      "--invoice-difference <amount>",
      withDefault(
        "alert on a month whose invoices differ from its calls, or bill calls the warehouse lacks, by at least this (0: any)",
        "none",
      ),
    )
    .option(
      "--outstanding-days <n>",
      withDefault("alert on an invoice still owed this many days after it was made", "none"),
    )
    .option("--uncollectible", "alert on an uncollectible invoice (what it left unpaid is written off)")
    .option("--refunds", "alert on an invoice with money refunded")
    .option("--other-currency", "alert on an invoice in another currency than the calls' USD prices")
    .option(
      "--pending-days <n>",
      withDefault("alert on calls still pending billing this many days after they were made", "none"),
    )
    .option(
      "--stale-hours <n>",
      withDefault("alert when the last completed export ended more hours ago", "none"),
    )
    .option(
      "--repeat-step <percent>",
      withDefault(
        "an alert reported today is reported again when its value moved by more",
        CHECK_DEFAULTS.repeatStepPercent,
      ),
    )
    .option("--all", "show every alert, also those reported today already (and record nothing)")
    .option("--json", "one JSON line per alert: rule, subject, value, threshold, period, unit, note")
    .option(
      "--now <instant>",
      withDefault(
        "preview as if it were this UTC instant or day, e.g. 2026-10-15: records nothing",
        "the clock",
      ),
    )
    .option(
      "--backtest",
      "replay the month-end forecast and the spike rule over the stored history: error at days 7, 14, 21, interval coverage, spike alerts",
    )
    .addOption(logFormatOption())
    .option("--debug", "show stack traces")
    .action(async (flags) => {
      const { checkAction } = await import("./checkAction.js");
      done(await checkAction(flags, io));
    });
}
