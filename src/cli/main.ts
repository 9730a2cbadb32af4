#!/usr/bin/env node
import { Command, Option } from "commander";
import { createClient } from "../api/createClient.js";
import { type CommonFlags, DEFAULT_MAX_RESPONSE_MB, describeConfig, loadConfig } from "../config/config.js";
import {
  DEFAULT_DB,
  DEFAULT_OPERATIONS_WINDOW,
  DEFAULT_OUT,
  loadExportConfig,
} from "../config/exportConfig.js";
import { ExitCode, type ExitCodeValue } from "../errors.js";
import { createLogger } from "../log/logger.js";
import { exportAction } from "./exportAction.js";
import {
  isoDate,
  nonNegativeInteger,
  nonNegativeNumber,
  positiveInteger,
  probability,
} from "./parseNumber.js";
import { registerReportCommand } from "./reportCommand.js";
import { reportError } from "./reportError.js";
import { packageVersion } from "./version.js";

/**
 * The switchboard: parse flags, build a Config, call one function, map errors to exit codes.
 * This is the only module that reads process.env, process.argv and the real clock.
 *
 * Commands other than export load their modules when they run (dynamic import), so that a nightly
 * export does not pay for the simulator, the report and the operation viewer at every start.
 */
const stdout = (text: string) => process.stdout.write(`${text}\n`);
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function addApiOptions(command: Command): Command {
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
 * Commander reads `--no-operations` as the negation of `--operations <mode>`: defined after it, it
 * sets the same `operations` key to false, and leaves it undefined when neither is given.
 */
function addExportOptions(command: Command): Command {
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
    .option("--json", "print a machine-readable run summary on stdout")
    .option("--no-summary", "do not print the spend summary after the run");
}

function loggerFor(flags: { debug?: boolean }) {
  return createLogger({ level: flags.debug ? "debug" : "info" });
}

async function main(argv: string[]): Promise<ExitCodeValue> {
  let debug = argv.includes("--debug");
  const program = new Command()
    .name("zoo-usage")
    .description("Export Zoo API (api.zoo.dev) usage and billing data to DuckDB and Parquet.")
    .version(packageVersion(), "-V, --version", "print the version")
    .showHelpAfterError()
    .exitOverride();

  let exitCode: ExitCodeValue = ExitCode.ok;

  const operation = program
    .command("operation")
    .description("inspect async operations (long-running CAD jobs)");
  addApiOptions(
    operation
      .command("get <id>")
      .description("show an async operation: type, status, times, formats, results, error")
      .option("--json", "print the operation object as JSON")
      .option("--wait", "poll until the operation is completed or failed")
      .option("--timeout <seconds>", "give up waiting after this long", nonNegativeNumber, 600)
      .option("--save-outputs <dir>", "write the operation's output files into this directory")
      .option("--from-db", "show what the warehouse holds for this id instead of asking the API")
      .option(
        "--db <path>",
        `with --from-db: the DuckDB database (default: $ZOO_USAGE_DB, else ${DEFAULT_DB})`,
      ),
  ).action(
    async (
      id: string,
      flags: CommonFlags & {
        json?: boolean;
        wait?: boolean;
        timeout: number;
        saveOutputs?: string;
        printConfig?: boolean;
        fromDb?: boolean;
        db?: string;
      },
    ) => {
      debug = flags.debug ?? false;
      if (flags.fromDb) {
        const { dbPath } = loadExportConfig({ flags: { db: flags.db }, env: process.env });
        const { runOperationFromDb } = await import("../commands/operationFromDb.js");
        exitCode = await runOperationFromDb({ id, dbPath, json: flags.json ?? false }, stdout);
        return;
      }
      const config = loadConfig({ flags, env: process.env });
      if (flags.printConfig) {
        stdout(JSON.stringify(describeConfig(config), null, 2));
        return;
      }
      const logger = loggerFor(flags);
      const client = createClient(config, { logger });
      try {
        const { runOperationGet } = await import("../commands/operationGet.js");
        exitCode = await runOperationGet(
          client,
          {
            id,
            json: flags.json ?? false,
            wait: flags.wait ?? false,
            timeoutMs: flags.timeout * 1000,
            saveOutputsDir: flags.saveOutputs,
          },
          { logger, stdout, now: Date.now, sleep },
        );
      } finally {
        await client.close();
      }
    },
  );

  program
    .command("sim")
    .description("run the local Zoo API simulator (for demos, tests and benchmarks; no account needed)")
    .option("--host <host>", "address to listen on", "127.0.0.1")
    .option("--port <port>", "port to listen on (0 = any free port)", nonNegativeInteger, 8080)
    .option("--seed <n>", "seed of the generated data", nonNegativeInteger, 1)
    .option("--calls <n>", "calls visible at the start", nonNegativeInteger, 100_000)
    .option("--days <n>", "days of history the calls span", positiveInteger, 90)
    .option("--users <n>", "number of users", positiveInteger, 3)
    .option("--now <iso>", "simulated time at start", isoDate)
    .option("--token <token>", "token of the first user (a simulator credential, not a Zoo one)")
    .option("--price-as-string", "serve prices as decimal strings, as Zoo's docs show")
    .option("--record-own-traffic", "list every served API request as a call of its user, as Zoo does")
    .option(
      "--output-bytes <n>",
      "size of each operation's first output file, e.g. 20000000",
      positiveInteger,
    )
    .addOption(
      new Option(
        "--price-mode <mode>",
        "realistic: Zoo's pricing rules, whole cents; adversarial: odd sub-cent prices for testing",
      )
        .choices(["realistic", "adversarial"])
        .default("realistic"),
    )
    .addOption(
      new Option(
        "--late-billing <share>",
        "share of calls billed 3-40 days late or at month end (0.05)",
      ).argParser(probability),
    )
    .addOption(
      new Option("--latency-ms <ms>", "latency added to every response").argParser(nonNegativeInteger),
    )
    .addOption(new Option("--rate-429 <rate>", "share of requests answered 429").argParser(probability))
    .addOption(
      new Option("--retry-after <seconds>", "Retry-After sent with 429").argParser(nonNegativeInteger),
    )
    .addOption(
      new Option("--rate-5xx <rate>", "share of requests answered 500/502/503").argParser(probability),
    )
    .addOption(new Option("--rate-reset <rate>", "share of connections reset").argParser(probability))
    .addOption(new Option("--rate-truncated <rate>", "share of bodies cut short").argParser(probability))
    .addOption(new Option("--fault-seed <n>", "seed of the fault draws").argParser(nonNegativeInteger))
    .action(async (flags) => {
      const { runSimulator } = await import("../commands/simulate.js");
      const close = await runSimulator(
        {
          host: flags.host,
          port: flags.port,
          seed: flags.seed,
          calls: flags.calls,
          days: flags.days,
          users: flags.users,
          now: flags.now,
          firstUserToken: flags.token,
          priceAsString: flags.priceAsString ?? false,
          priceMode: flags.priceMode,
          recordOwnTraffic: flags.recordOwnTraffic ?? false,
          outputBytes: flags.outputBytes,
          ...(flags.lateBilling === undefined ? {} : { lateBilling: { share: flags.lateBilling } }),
          faults: {
            latencyMs: flags.latencyMs,
            rate429: flags.rate429,
            retryAfterSeconds: flags.retryAfter,
            rate5xx: flags.rate5xx,
            rateReset: flags.rateReset,
            rateTruncated: flags.rateTruncated,
            faultSeed: flags.faultSeed,
          },
        },
        stdout,
      );
      await new Promise<void>((resolve) => {
        process.once("SIGINT", resolve);
        process.once("SIGTERM", resolve);
      });
      await close();
    });

  addApiOptions(addExportOptions(program.command("export")))
    .description(
      "export your API calls into DuckDB and Parquet: incremental, crash-safe, exact to the micro-dollar",
    )
    .action(async (flags) => {
      debug = flags.debug ?? false;
      exitCode = await exportAction({ flags, env: process.env, stdout });
    });

  registerReportCommand(program, { env: process.env, stdout });

  addExportOptions(program.command("demo"))
    .description(
      "run the export against the built-in simulator (no account, no network): what `npm start` does",
    )
    .option("--calls <n>", "calls in the simulated history", positiveInteger, 50_000)
    .option("--debug", "log every request and show stack traces")
    .action(async (flags) => {
      debug = flags.debug ?? false;
      const { demoAction } = await import("./demoAction.js");
      exitCode = await demoAction({ flags, stdout });
    });

  try {
    await program.parseAsync(argv);
  } catch (error) {
    // Commander already printed usage errors and help; only map them to an exit code here.
    const code = (error as { code?: string }).code;
    if (code === "commander.helpDisplayed" || code === "commander.version" || code === "commander.help")
      return ExitCode.ok;
    if (typeof code === "string" && code.startsWith("commander.")) return ExitCode.usage;
    return reportError(error, debug, (text) => process.stderr.write(text));
  }
  return exitCode;
}

process.exitCode = await main(process.argv);
