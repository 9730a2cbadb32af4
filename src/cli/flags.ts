import { type Command, Option } from "commander";
import { DEFAULT_MAX_RESPONSE_MB } from "../config/apiConfig.js";
import { DEFAULT_DB } from "../config/databaseSetting.js";
import { DEFAULT_OPERATIONS_WINDOW, DEFAULT_OUT } from "../config/exportConfig.js";
import { LOG_FORMATS } from "../log/logger.js";
import { nonNegativeInteger, nonNegativeNumber, positiveInteger } from "./parseNumber.js";

/** The flags of every command that talks to the API (export, operation get). */
export function addApiOptions(command: Command): Command {
  return command
    .option("--base-url <url>", "API base URL (default: $ZOO_HOST, else https://api.zoo.dev)")
    .option("--max-attempts <n>", "attempts per request, first included", positiveInteger)
    .option("--max-retry-wait <seconds>", "total time a run may spend waiting to retry", nonNegativeNumber)
    .option(
      "--request-timeout <seconds>",
      "time limit for one request, connect to last byte (default 60)",
      nonNegativeNumber,
    )
    .option(
      "--max-response-mb <n>",
      `largest response body accepted, in MiB (default ${DEFAULT_MAX_RESPONSE_MB})`,
      nonNegativeNumber,
    )
    .option("--print-config", "print the effective configuration (token redacted) and exit")
    .option("--debug", "log every request and show stack traces");
}

/**
 * The flags of export, and of the demo, which runs an export. Commander reads `--no-operations` as
 * the negation of `--operations <mode>`: defined after it, it sets the same `operations` key to
 * false, and leaves it undefined when neither is given.
 */
export function addExportOptions(command: Command): Command {
  return command
    .option("--db <path>", `DuckDB database file (default: $ZOO_USAGE_DB, else ${DEFAULT_DB})`)
    .option("--out <dir>", `Parquet dataset directory (default: $ZOO_USAGE_OUT, else ${DEFAULT_OUT})`)
    .option("--limit <n>", "page size of GET /user/api-calls (1-10000)", positiveInteger)
    .option("--lookback <duration>", "re-read calls created this long before the newest one (3d, 36h, 90m)")
    .option("--full-refresh", "rescan the whole history instead of the recent window")
    .addOption(
      new Option("--partition <by>", "Parquet partitioning by UTC created_at").choices(["month", "day"]),
    )
    .addOption(
      new Option("--duration-unit <unit>", "unit of the API's raw duration").choices(["ns", "us", "ms", "s"]),
    )
    .addOption(
      new Option("--token-column <policy>", "the token column (identifies a credential)").choices([
        "hash",
        "drop",
        "keep",
      ]),
    )
    .addOption(new Option("--email-column <policy>", "the email column").choices(["keep", "hash", "drop"]))
    .addOption(
      new Option("--ip-address-column <policy>", "the ip_address column").choices(["keep", "hash", "drop"]),
    )
    .option(
      "--max-price <usd>",
      "reject a call priced above this or below minus this (sanity limit)",
      nonNegativeNumber,
    )
    .option("--batch-records <n>", "records per transaction", positiveInteger)
    .addOption(
      new Option(
        "--operations <mode>",
        "async operations to fetch: window (calls created within --operations-window, plus stored ones not yet final) or all (the whole history, resumable)",
      ).choices(["window", "all"]),
    )
    .option("--no-operations", "do not fetch the async operations the calls started")
    .option(
      "--operations-window <duration>",
      `fetch the operations of calls created this long before the run's clock, not the newest call (default ${DEFAULT_OPERATIONS_WINDOW})`,
    )
    .option(
      "--operations-concurrency <n>",
      "most async operations fetched at once; the pace adapts below it (default 32)",
      positiveInteger,
    )
    .option(
      "--max-pending-rereads <n>",
      "calls pending billing from before the lookback window re-read per run (default 1000, 0: none)",
      nonNegativeInteger,
    )
    .option("--json", "print the run summary as one line of JSON on stdout, whatever the outcome")
    .addOption(
      new Option("--log-format <format>", "stderr log lines: text, or json (one object a line)")
        .choices(LOG_FORMATS)
        .default("text"),
    )
    .option("--no-summary", "do not print the spend summary after the run");
}
