import { Command, Option } from "commander";
import { DEMO_DEFAULTS, DEMO_EXPORT_DEFAULTS, OPERATION_GET_DEFAULTS } from "../config/commandDefaults.js";
import { DEFAULT_DB } from "../config/databaseSetting.js";
import { DEFAULT_TOP } from "../config/reportConfig.js";
import type { ExitCodeValue } from "../errors.js";
import { INVOICE_CURRENCIES } from "../sim/currencyRates.js";
import { SIM_DEFAULTS } from "../sim/defaults.js";
import { addCheckCommand } from "./checkCommand.js";
import { exportHelpText } from "./exportHelp.js";
import { addApiOptions, addExportOptions, logFormatOption, withDefault } from "./flags.js";
import type { CliIo } from "./io.js";
import {
  isoDate,
  nonNegativeInteger,
  nonNegativeNumber,
  positiveInteger,
  probability,
} from "./parseNumber.js";
import { addUsageShapeOptions } from "./simUsageShapeFlags.js";
import { TOP_LEVEL_HELP } from "./topLevelHelp.js";
import { packageVersion } from "./version.js";

/** Receives the exit code an action ended with. */
type Done = (exitCode: ExitCodeValue) => void;

/**
 * The commander program: every command with its flags, help and defaults, each handing its flags
 * to its action. Every action loads its modules when it runs (dynamic import): `--version` and
 * `--help` answer without loading DuckDB, and a nightly export does not pay for the simulator, the
 * report and the operation viewer.
 */
export function buildProgram(io: CliIo, done: Done): Command {
  const program = new Command()
    .name("zoo-usage")
    .description("Export Zoo API (api.zoo.dev) usage and billing data to DuckDB and Parquet.")
    .version(packageVersion(), "-V, --version", "print the version")
    .exitOverride();
  addApiOptions(addExportOptions(program.command("export")))
    .description(
      "export your API calls (with their async operations, the invoices and the credits balance) into DuckDB and Parquet: incremental, crash-safe, exact to the micro-dollar",
    )
    .addHelpText("after", exportHelpText())
    .action(async (flags) => {
      const { exportAction } = await import("./exportAction.js");
      done(await exportAction(flags, io));
    });
  addReportCommand(program, io, done);
  addCheckCommand(program, io, done);
  addDemoCommand(program, io, done);
  addOperationCommand(program, io, done);
  addSimCommand(program, io, done);
  return program.addHelpText("after", TOP_LEVEL_HELP);
}

function addDemoCommand(program: Command, io: CliIo, done: Done): void {
  addExportOptions(program.command("demo"), false, DEMO_EXPORT_DEFAULTS)
    .description(
      "run the export against the built-in simulator (no account, no network): what `npm start` does",
    )
    .option(
      "--calls <n>",
      withDefault("calls in the simulated history", DEMO_DEFAULTS.calls),
      positiveInteger,
    )
    .option("--debug", "log every request and show stack traces")
    .action(async (flags) => {
      const { demoAction } = await import("./demoAction.js");
      done(await demoAction(flags, io));
    });
}

function addOperationCommand(program: Command, io: CliIo, done: Done): void {
  const operation = program
    .command("operation")
    .description("inspect async operations (long-running CAD jobs)");
  addApiOptions(
    operation
      .command("get <id>")
      .description("show an async operation: type, status, times, formats, results, error")
      .option("--json", "print the operation object as JSON")
      .option("--wait", "poll until the operation is completed or failed")
      .option(
        "--timeout <seconds>",
        withDefault("give up waiting after this long", OPERATION_GET_DEFAULTS.timeoutSeconds),
        nonNegativeNumber,
      )
      .option("--save-outputs <dir>", "write the operation's output files into this directory")
      .option("--from-db", "show what the warehouse holds for this id instead of asking the API")
      .option(
        "--db <path>",
        withDefault("with --from-db: the DuckDB database", `$ZOO_USAGE_DB, else ${DEFAULT_DB}`),
      )
      .addOption(logFormatOption()),
  ).action(async (id: string, flags) => {
    const { operationGetAction } = await import("./operationGetAction.js");
    done(await operationGetAction(id, flags, io));
  });
}

function addReportCommand(program: Command, io: CliIo, done: Done): void {
  program
    .command("report")
    .description(
      "show spend from the database: per month, per day, per endpoint, pending billing, rejects, operations, invoices against spend, API credits; --html for a page",
    )
    .option(
      "--db <path>",
      withDefault("DuckDB database file, opened read-only", `$ZOO_USAGE_DB, else ${DEFAULT_DB}`),
    )
    .option(
      "--from <day>",
      "first UTC day of the period, YYYY-MM-DD, or YYYY-MM for its first day (default: the first call)",
    )
    .option(
      "--to <day>",
      "last UTC day of the period, included, YYYY-MM-DD, or YYYY-MM for its last day (default: the last call)",
    )
    .option(
      "--month <YYYY-MM>",
      "the whole UTC month as the period; not with --from/--to (default: none, see --from and --to)",
    )
    .option("--top <n>", withDefault("rows in the top lists", DEFAULT_TOP), positiveInteger)
    .option("--json", "print the figures as JSON (money as exact decimal strings)")
    .option("--html <file>", "also write a self-contained HTML report to this file")
    .option(
      "--show-email",
      "show the email address of each of the most expensive calls (personal data: hidden by default)",
    )
    .addOption(logFormatOption())
    .option("--debug", "show stack traces")
    .action(async (flags) => {
      const { reportAction } = await import("./reportAction.js");
      done(await reportAction(flags, io));
    });
}

function addSimCommand(program: Command, io: CliIo, done: Done): void {
  const sim = program
    .command("sim")
    .description("run the local Zoo API simulator (for demos, tests and benchmarks; no account needed)")
    .option("--host <host>", "address to listen on", "127.0.0.1")
    .option("--port <port>", "port to listen on (0 = any free port)", nonNegativeInteger, 8080)
    .option("--seed <n>", "seed of the generated data", nonNegativeInteger, 1)
    .option("--calls <n>", "calls visible at the start", nonNegativeInteger, 100_000)
    .option("--days <n>", "days of history the calls span", positiveInteger, 90)
    .option("--users <n>", "number of users (users 1-3 form an org, user 1 its admin)", positiveInteger, 4)
    .option(
      "--api-tokens <n>",
      withDefault("API tokens of user 0, its calls spread over them", "1 to 3"),
      positiveInteger,
    )
    .option(
      "--now <iso>",
      withDefault("simulated time at start, then moved only by POST /_sim/clock", SIM_DEFAULTS.simNow),
      isoDate,
    )
    .option(
      "--token <token>",
      withDefault("token of the first user (a simulator credential, not a Zoo one)", "derived from --seed"),
    )
    .option("--price-as-string", "serve prices as decimal strings, as Zoo's docs show")
    .option("--record-own-traffic", "list every served API request as a call of its user, as Zoo does")
    .option("--invoice-disagreement", "add $1.23 to one invoice line, for the reconciliation to find")
    .option("--missing-invoice-item", "give one billable call an invoice item no invoice line carries")
    .option("--extra-invoice-line", "bill one invoice item twice, on an extra line of $2.50")
    .option(
      "--no-seasonal",
      "spread the calls evenly (default: quiet weekends, 1.5% growth a week, days that vary)",
    )
    .option(
      "--spike-day <YYYY-MM-DD>",
      withDefault("give this UTC day --spike-factor times its calls, for `check` to find", "none"),
    )
    .option(
      "--runway-grant-days <n>",
      withDefault("the credits granted before the start last this many days of spend", 10),
      positiveInteger,
    )
    .addOption(
      new Option(
        "--invoice-items <shape>",
        "one invoice item per account and month, or one per billable call",
      )
        .choices(["per-month", "per-call"])
        .default("per-month"),
    )
    .option("--subscription", "end every invoice with a $20 Pro subscription line")
    .addOption(
      new Option(
        "--credits-on-invoice <shape>",
        "none: calls paid by credits are on no invoice; line or discount: every call is, the credits applied as a negative line or a discount",
      )
        .choices(["none", "line", "discount"])
        .default("none"),
    )
    .option(
      "--invoice-lines-limit <n>",
      withDefault("invoices list only their first n lines (subtotal and total stay whole)", "all"),
      positiveInteger,
    )
    .option("--invoice-statuses", "serve draft, open, uncollectible and void invoices beside the paid ones")
    .addOption(
      new Option(
        "--invoice-tax <where>",
        withDefault("an 8.25% sales tax in the tax field (amount) or as a line of its own (line)", "none"),
      ).choices(["amount", "line"]),
    )
    .addOption(
      new Option(
        "--invoice-discount <kind>",
        withDefault("a 10% coupon off the invoice, or off each usage line written gross or net", "none"),
      ).choices(["coupon", "item-gross", "item-net"]),
    )
    .option("--invoice-refund", "refund a quarter of each account's oldest paid invoice")
    .option("--partial-payment", "leave each account's newest closed invoice open, half paid")
    .option("--customer-balance", "pay $5.00 of each account's oldest invoice from its customer balance")
    .addOption(
      new Option(
        "--invoice-currency <code>",
        withDefault("write the invoices in this currency, at a fixed rate from USD", "usd"),
      ).choices(INVOICE_CURRENCIES),
    )
    .option("--void-reissue", "void each account's oldest invoice with usage and reissue it with new items")
    .addOption(
      new Option(
        "--tie-share <share>",
        withDefault("share of calls whose created_at ties with the call before them (at most 0.5)", 0),
      ).argParser(probability),
    )
    .option(
      "--output-bytes <n>",
      withDefault("size of each operation's first output file, e.g. 20000000", "as generated"),
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
        withDefault("share of calls billed 3-40 days late or at month end", SIM_DEFAULTS.lateBillingShare),
      ).argParser(probability),
    )
    .addOption(
      new Option(
        "--latency-ms <ms>",
        withDefault("latency added to every response", SIM_DEFAULTS.latencyMs),
      ).argParser(nonNegativeInteger),
    )
    .addOption(
      new Option(
        "--rate-429 <rate>",
        withDefault("share of requests answered 429", SIM_DEFAULTS.faultRate),
      ).argParser(probability),
    )
    .addOption(
      new Option(
        "--retry-after <seconds>",
        withDefault("Retry-After sent with 429", SIM_DEFAULTS.retryAfterSeconds),
      ).argParser(nonNegativeInteger),
    )
    .addOption(
      new Option(
        "--rate-5xx <rate>",
        withDefault("share of requests answered 500/502/503", SIM_DEFAULTS.faultRate),
      ).argParser(probability),
    )
    .addOption(
      new Option(
        "--rate-reset <rate>",
        withDefault("share of connections reset", SIM_DEFAULTS.faultRate),
      ).argParser(probability),
    )
    .addOption(
      new Option(
        "--rate-truncated <rate>",
        withDefault("share of bodies cut short", SIM_DEFAULTS.faultRate),
      ).argParser(probability),
    )
    .addOption(
      new Option(
        "--fault-seed <n>",
        withDefault("seed of the fault draws", SIM_DEFAULTS.faultSeed),
      ).argParser(nonNegativeInteger),
    );
  addUsageShapeOptions(sim).action(async (flags) => {
    const { simAction } = await import("./simAction.js");
    done(await simAction(flags, io));
  });
}
