import { ZooUsageError } from "../errors.js";
import { baseline, CHECK_DEFAULTS, type CheckRules, number, parseRulesFile, usd } from "./checkRules.js";
import { databasePath } from "./databaseSetting.js";
import type { Env } from "./environment.js";
import { isIsoDay } from "./reportConfig.js";

/** The flags of `zoo-usage check`, as commander hands them over (all optional). */
export interface CheckFlags {
  db?: string | undefined;
  rules?: string | undefined;
  budget?: string | undefined;
  budgetActual?: string | undefined;
  budgetForecast?: string | undefined;
  spikeFactor?: string | undefined;
  spikeMin?: string | undefined;
  spikeBaseline?: string | undefined;
  runwayDays?: string | undefined;
  invoiceDifference?: string | undefined;
  outstandingDays?: string | undefined;
  uncollectible?: boolean | undefined;
  refunds?: boolean | undefined;
  otherCurrency?: boolean | undefined;
  pendingDays?: string | undefined;
  staleHours?: string | undefined;
  repeatStep?: string | undefined;
  now?: string | undefined;
  all?: boolean | undefined;
  json?: boolean | undefined;
  backtest?: boolean | undefined;
}

export interface CheckConfig {
  dbPath: string;
  rules: CheckRules;
  /** The instant judged at: the clock unless --now; its UTC day is the first day not complete. */
  now: Date | null;
  /** Every alert, whether reported today already or not; the state is left as it is. */
  all: boolean;
  json: boolean;
  /** An alert reported today already is reported again when its value moved by more than this (percent). */
  repeatStepPercent: string;
  /** Replay the forecast over the stored history instead of checking. */
  backtest: boolean;
}

/**
 * Pure: the rules file's text (read by the caller, `rulesText`) and the flags, a flag replacing the
 * file's rule of the same kind (the per-subject budgets come from the file only). Errors name the
 * flag, or the file's line and field.
 */
export function loadCheckConfig(input: {
  flags: CheckFlags;
  env: Env;
  rulesText?: string | undefined;
}): CheckConfig {
  const { flags, env } = input;
  const rules: CheckRules =
    input.rulesText === undefined
      ? { subjectBudgets: [] }
      : parseRulesFile(input.rulesText, flags.rules ?? "rules");
  if (flags.budget !== undefined) {
    rules.budget = {
      usd: usd(flags.budget, "--budget"),
      actualPercent: number(flags.budgetActual ?? CHECK_DEFAULTS.budgetActualPercent, "--budget-actual"),
      forecastPercent: number(
        flags.budgetForecast ?? CHECK_DEFAULTS.budgetForecastPercent,
        "--budget-forecast",
      ),
    };
  } else if (flags.budgetActual !== undefined || flags.budgetForecast !== undefined) {
    if (rules.budget === undefined) throw invalidFlag("--budget-actual and --budget-forecast need --budget");
    if (flags.budgetActual !== undefined)
      rules.budget.actualPercent = number(flags.budgetActual, "--budget-actual");
    if (flags.budgetForecast !== undefined)
      rules.budget.forecastPercent = number(flags.budgetForecast, "--budget-forecast");
  }
  if (flags.spikeFactor !== undefined) {
    rules.spike = {
      factor: number(flags.spikeFactor, "--spike-factor"),
      minUsd: usd(flags.spikeMin ?? CHECK_DEFAULTS.spikeMinUsd, "--spike-min"),
      baseline: baseline(flags.spikeBaseline ?? CHECK_DEFAULTS.spikeBaseline, "--spike-baseline"),
    };
  } else if (flags.spikeMin !== undefined || flags.spikeBaseline !== undefined) {
    if (rules.spike === undefined) throw invalidFlag("--spike-min and --spike-baseline need --spike-factor");
    if (flags.spikeMin !== undefined) rules.spike.minUsd = usd(flags.spikeMin, "--spike-min");
    if (flags.spikeBaseline !== undefined)
      rules.spike.baseline = baseline(flags.spikeBaseline, "--spike-baseline");
  }
  if (flags.runwayDays !== undefined) rules.runwayDays = number(flags.runwayDays, "--runway-days");
  if (flags.invoiceDifference !== undefined)
    rules.invoiceDifferenceUsd = usd(flags.invoiceDifference, "--invoice-difference");
  if (flags.outstandingDays !== undefined)
    rules.outstandingDays = number(flags.outstandingDays, "--outstanding-days");
  if (flags.uncollectible === true) rules.uncollectible = true;
  if (flags.refunds === true) rules.refund = true;
  if (flags.otherCurrency === true) rules.otherCurrency = true;
  if (flags.pendingDays !== undefined) rules.pendingDays = number(flags.pendingDays, "--pending-days");
  if (flags.staleHours !== undefined) rules.staleHours = number(flags.staleHours, "--stale-hours");
  const backtest = flags.backtest ?? false;
  if (!backtest && !hasRules(rules)) {
    throw invalidFlag(
      "no rule to check",
      "Give a rules file (--rules check.conf) or a rule flag such as --budget 500 or --stale-hours 26.",
    );
  }
  return {
    dbPath: databasePath(flags.db, env),
    rules,
    now: flags.now === undefined ? null : instant(flags.now),
    all: flags.all ?? false,
    json: flags.json ?? false,
    repeatStepPercent: number(flags.repeatStep ?? CHECK_DEFAULTS.repeatStepPercent, "--repeat-step"),
    backtest,
  };
}

function hasRules(rules: CheckRules): boolean {
  return (
    rules.budget !== undefined ||
    rules.spike !== undefined ||
    rules.subjectBudgets.length > 0 ||
    rules.runwayDays !== undefined ||
    rules.invoiceDifferenceUsd !== undefined ||
    rules.outstandingDays !== undefined ||
    rules.uncollectible === true ||
    rules.refund === true ||
    rules.otherCurrency === true ||
    rules.pendingDays !== undefined ||
    rules.staleHours !== undefined
  );
}

/** A UTC day, or an instant with its offset: "T" hh:mm[:ss[.fff]] and Z or ±hh:mm. */
const NOW =
  /^(\d{4}-\d{2}-\d{2})(?:T([01]\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:\.\d{1,9})?)?(?:Z|[+-](?:[01]\d|2[0-3]):[0-5]\d))?$/;

/**
 * --now as an instant. Date.parse alone is not enough: it takes 2026-02-29 as March 1st and
 * 24:00 as the next day, so a preview would judge a night nobody asked about.
 */
function instant(text: string): Date {
  const match = NOW.exec(text);
  const ms = Date.parse(text);
  if (match === null || !isIsoDay(match[1] as string) || Number.isNaN(ms)) {
    throw invalidFlag(
      `--now expects a real UTC day YYYY-MM-DD or an instant such as 2026-10-15T06:00:00Z, got ${JSON.stringify(text)}`,
    );
  }
  return new Date(ms);
}

function invalidFlag(
  message: string,
  hint = "See `zoo-usage check --help` and docs/check.md.",
): ZooUsageError {
  return new ZooUsageError({ code: "config.invalid", message: `Invalid check options: ${message}`, hint });
}
