import { type Command, Option } from "commander";
import { API_DEFAULTS } from "../config/apiConfig.js";
import { EXPORT_DEFAULTS } from "../config/exportConfig.js";
import { LOG_FORMATS } from "../log/logger.js";
import { nonNegativeInteger, nonNegativeNumber, positiveInteger } from "./parseNumber.js";

/**
 * A flag's description ending in its default, in the form commander prints for its own defaults.
 * The loaders in src/config apply the defaults (a flag beats a variable, which beats the default),
 * so commander holds none and the help reads them from the same constants.
 */
export function withDefault(description: string, value: string | number): string {
  return `${description} (default: ${value})`;
}

/** The flags of every command that talks to the API (export, operation get). */
export function addApiOptions(command: Command): Command {
  return command
    .option("--base-url <url>", withDefault("API base URL", `$ZOO_HOST, else ${API_DEFAULTS.baseUrl}`))
    .option(
      "--max-attempts <n>",
      withDefault("attempts per request, first included", API_DEFAULTS.maxAttempts),
      positiveInteger,
    )
    .option(
      "--max-retry-wait <seconds>",
      withDefault("total time a run may spend waiting to retry", API_DEFAULTS.maxRetryWaitSeconds),
      nonNegativeNumber,
    )
    .option(
      "--request-timeout <seconds>",
      withDefault("time limit for one request, connect to last byte", API_DEFAULTS.requestTimeoutSeconds),
      nonNegativeNumber,
    )
    .option(
      "--max-response-mb <n>",
      withDefault("largest response body accepted, in MiB", API_DEFAULTS.maxResponseMb),
      nonNegativeNumber,
    )
    .option("--print-config", "print the effective configuration (token redacted) and exit")
    .option("--debug", "log every request and show stack traces");
}

/**
 * The flags of export, and of the demo, which runs an export; the demo reads no variable
 * (`readsEnv` false), so its help names none. Commander reads `--no-operations` as the negation of
 * `--operations <mode>`: defined after it, it sets the same `operations` key to false, and leaves
 * it undefined when neither is given.
 */
export function addExportOptions(command: Command, readsEnv = true): Command {
  const d = EXPORT_DEFAULTS;
  const orVariable = (name: string, value: string) => (readsEnv ? `$${name}, else ${value}` : value);
  return command
    .option("--db <path>", withDefault("DuckDB database file", orVariable("ZOO_USAGE_DB", d.db)))
    .option("--out <dir>", withDefault("Parquet dataset directory", orVariable("ZOO_USAGE_OUT", d.out)))
    .option(
      "--limit <n>",
      withDefault("page size of GET /user/api-calls (1-10000)", d.limit),
      positiveInteger,
    )
    .option(
      "--lookback <duration>",
      withDefault("re-read calls created this long before the newest one (3d, 36h, 90m)", d.lookback),
    )
    .option("--full-refresh", "rescan the whole history instead of the recent window")
    .addOption(
      new Option(
        "--scope <scope>",
        withDefault("whose calls: the token's user, or its whole organisation (org admins)", d.scope),
      ).choices(["user", "org"]),
    )
    .addOption(
      new Option(
        "--partition <by>",
        withDefault("Parquet partitioning by UTC created_at", d.partition),
      ).choices(["month", "day"]),
    )
    .addOption(
      new Option(
        "--duration-unit <unit>",
        withDefault("unit of the API's raw duration", d.durationUnit),
      ).choices(["ns", "us", "ms", "s"]),
    )
    .addOption(
      new Option(
        "--token-column <policy>",
        withDefault("the token column (identifies a credential)", d.tokenColumn),
      ).choices(["hash", "drop", "keep"]),
    )
    .addOption(
      new Option("--email-column <policy>", withDefault("the email column", d.emailColumn)).choices([
        "keep",
        "hash",
        "drop",
      ]),
    )
    .addOption(
      new Option(
        "--ip-address-column <policy>",
        withDefault("the ip_address column", d.ipAddressColumn),
      ).choices(["keep", "hash", "drop"]),
    )
    .option(
      "--max-price <usd>",
      withDefault("reject a call priced above this or below minus this (sanity limit)", d.maxPriceUsd),
      nonNegativeNumber,
    )
    .option("--batch-records <n>", withDefault("records per transaction", d.batchRecords), positiveInteger)
    .addOption(
      new Option(
        "--operations <mode>",
        withDefault(
          "async operations to fetch: window (calls created within --operations-window, plus stored ones not yet final) or all (the whole history, resumable)",
          d.operations,
        ),
      ).choices(["window", "all"]),
    )
    .option("--no-operations", "do not fetch the async operations the calls started")
    .option(
      "--operations-window <duration>",
      withDefault(
        "fetch the operations of calls created this long before the run's clock, not the newest call",
        d.operationsWindow,
      ),
    )
    .option(
      "--operations-concurrency <n>",
      withDefault("most async operations fetched at once; the pace adapts below it", d.operationsConcurrency),
      positiveInteger,
    )
    .option(
      "--max-pending-rereads <n>",
      withDefault(
        "calls pending billing from before the lookback window re-read per run (0: none)",
        d.maxPendingRereads,
      ),
      nonNegativeInteger,
    )
    .option("--json", "print the run summary as one line of JSON on stdout, whatever the outcome")
    .addOption(logFormatOption())
    .option("--no-summary", "do not print the spend summary after the run");
}

/**
 * `--log-format`, on every command that writes log lines or errors to stderr: with `json`, each of
 * them is one JSON object a line (main.ts prints the error in the same format).
 */
export function logFormatOption(): Option {
  return new Option("--log-format <format>", "stderr log lines: text, or json (one object a line)")
    .choices(LOG_FORMATS)
    .default("text");
}
