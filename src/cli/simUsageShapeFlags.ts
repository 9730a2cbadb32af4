import { type Command, InvalidArgumentError, Option } from "commander";
import type { SimulatorOptions } from "../sim/index.js";
import { withDefault } from "./flags.js";
import { nonNegativeNumber, positiveNumber } from "./parseNumber.js";

/** The flags of `sim` that plant a change in usage, for the forecast's backtest (none by default). */
export interface SimUsageShapeFlags {
  spikeFactor?: number;
  spikeWeekday?: number;
  stepDay?: string;
  stepFactor?: number;
  growthPerWeek?: number;
  quietMonth?: string;
  lognormalNoise?: number;
}

const WEEKDAYS = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"] as const;

/** Adds the usage-shape flags to the `sim` command. */
export function addUsageShapeOptions(command: Command): Command {
  return command
    .addOption(
      new Option("--spike-factor <n>", withDefault("the multiple of a planted spike's calls", 6)).argParser(
        positiveNumber,
      ),
    )
    .addOption(
      new Option(
        "--spike-weekday <day>",
        withDefault("plant a spike on the second such weekday of every month (sun..sat)", "none"),
      )
        .choices(WEEKDAYS)
        .argParser((value) => {
          const index = WEEKDAYS.indexOf(value as (typeof WEEKDAYS)[number]);
          if (index < 0) throw new InvalidArgumentError(`expected one of ${WEEKDAYS.join(", ")}`);
          return index;
        }),
    )
    .option(
      "--step-day <YYYY-MM-DD>",
      withDefault("from this UTC day on, --step-factor times the calls", "none"),
    )
    .addOption(
      new Option("--step-factor <n>", withDefault("the step's multiple, e.g. 1.8 or 0.5", 1)).argParser(
        positiveNumber,
      ),
    )
    .addOption(
      new Option("--growth-per-week <share>", withDefault("growth of the call rate a week", 0.015)).argParser(
        nonNegativeNumber,
      ),
    )
    .option("--quiet-month <YYYY-MM>", withDefault("a UTC month with 40% of its usual calls", "none"))
    .addOption(
      new Option(
        "--lognormal-noise <sigma>",
        withDefault("day-to-day noise lognormal with this sigma, e.g. 0.25", "uniform +-12%"),
      ).argParser(positiveNumber),
    );
}

/** The simulator options the usage-shape flags ask for: only those given, so defaults stay as they are. */
export function usageShapeOptionsOf(flags: SimUsageShapeFlags): SimulatorOptions {
  const options: SimulatorOptions = {};
  if (flags.spikeFactor !== undefined) options.spikeFactor = flags.spikeFactor;
  if (flags.spikeWeekday !== undefined) options.spikeWeekday = flags.spikeWeekday;
  if (flags.stepDay !== undefined) options.stepDay = flags.stepDay;
  if (flags.stepFactor !== undefined) options.stepFactor = flags.stepFactor;
  if (flags.growthPerWeek !== undefined) options.growthPerWeek = flags.growthPerWeek;
  if (flags.quietMonth !== undefined) options.quietMonth = flags.quietMonth;
  if (flags.lognormalNoise !== undefined) options.lognormalNoise = flags.lognormalNoise;
  return options;
}
