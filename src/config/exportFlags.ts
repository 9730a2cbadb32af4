import { API_SCOPES } from "../api/scope.js";
import { DEFAULT_STORE_TIMEOUT_SECONDS, S3_ADDRESSINGS } from "../destination/s3Settings.js";
import { ZooUsageError } from "../errors.js";
import { PARTITIONINGS } from "../load/partitioning.js";
import { DEFAULT_DURATION_UNIT, DURATION_UNITS } from "../transform/durationUnit.js";
import { DEFAULT_PRIVACY, FIELD_POLICIES } from "../transform/privacy.js";
import { DEFAULT_DB, warehousePath } from "./databaseSetting.js";
import { parseDuration } from "./duration.js";
import type { FlagDefinition, FlagSetting, FlagsOf, FlagValue } from "./flagDefinition.js";
import { outLocation } from "./outLocation.js";

export const DEFAULT_OUT = "./zoo-usage/parquet";

/**
 * --store-timeout's variable. The flag tables give a variable only to a text flag (its text reaches
 * the field as it is), so exportConfig.ts reads this one when the flag is not given, as a number.
 */
export const STORE_TIMEOUT_VARIABLE = "ZOO_USAGE_STORE_TIMEOUT";

/**
 * The default cap on operation requests in flight. Against an API that answers in tens of
 * milliseconds the phase's time falls about in proportion up to it; the pace halves on refusals.
 */
export const DEFAULT_OPERATIONS_CONCURRENCY = 32;

/**
 * Records per transaction by default. A batch is held as JSON text, parsed rows and DuckDB's
 * insert buffers at once, so the batch size sets a good part of the peak memory; at network speed
 * batches commit before they fill, so this bounds the fast case (a local API, a resumed backlog).
 */
const DEFAULT_BATCH_RECORDS = 25_000;

export const DEFAULT_OPERATIONS_WINDOW = "35d";

const DEFAULT_OPERATIONS_MODE = "window";

const duration = (setting: FlagSetting) => parseDuration(String(setting.value), setting.name);

/**
 * The flags of `zoo-usage export` (and of the demo, which runs an export), in the order the help
 * lists them: each one's help, default, variable and the ExportConfig field it sets. The loader
 * (exportConfig.ts) and the CLI's options (cli/flags.ts) are both read from this table.
 */
export const EXPORT_FLAGS = [
  {
    flag: "--db <path>",
    help: "DuckDB database file",
    default: DEFAULT_DB,
    variable: "ZOO_USAGE_DB",
    field: "dbPath",
    toConfig: (db) => warehousePath(String(db.value), db.name),
  },
  {
    flag: "--out <dir>",
    help: "Parquet dataset directory, or s3://bucket/prefix",
    default: DEFAULT_OUT,
    variable: "ZOO_USAGE_OUT",
    field: "outDir",
    toConfig: outLocation,
  },
  {
    flag: "--adopt-out",
    help: "adopt a new --out with foreign files",
    default: false,
    variable: "ZOO_USAGE_ADOPT_OUT",
    field: "adoptOut",
  },
  {
    flag: "--s3-addressing <style>",
    help: "an s3:// --out's addressing: path-style with AWS_ENDPOINT_URL_S3 set, else virtual-hosted (auto)",
    choices: S3_ADDRESSINGS,
    default: "auto",
    field: "s3.addressing",
  },
  {
    flag: "--store-timeout <seconds>",
    help: "an s3:// --out's time limit for one request (a timed-out one is not retried)",
    parse: "nonNegativeNumber",
    default: DEFAULT_STORE_TIMEOUT_SECONDS,
    // Its variable, STORE_TIMEOUT_VARIABLE, is read by the loader: a table's variables are text.
    field: "s3.timeoutMs",
    toConfig: (setting) => Math.round(Number(setting.value) * 1000),
  },
  {
    flag: "--verify-out",
    help: "check every file under --out; rewrite broken ones",
    default: false,
    variable: "ZOO_USAGE_VERIFY_OUT",
    field: "verifyOut",
  },
  {
    flag: "--limit <n>",
    help: "page size of GET /user/api-calls (1-10000)",
    parse: "positiveInteger",
    // Dropshot's largest page: at a real network's latency a page costs a round trip, and the
    // scan's memory does not grow with the page (a page's items are read one at a time).
    default: 10_000,
    field: "limit",
  },
  {
    flag: "--lookback <duration>",
    help: "re-read calls created this long before the newest one (3d, 36h, 90m)",
    default: "3d",
    field: "lookbackMs",
    toConfig: duration,
  },
  {
    flag: "--full-refresh",
    help: "rescan the whole history instead of the recent window",
    default: false,
    field: "fullRefresh",
  },
  {
    flag: "--new-secret-key",
    help: "take this secret key though the database was written with another (the old one is lost)",
    default: false,
    field: "newSecretKey",
  },
  {
    flag: "--scope <scope>",
    help: "whose calls: the token's user, or its whole organisation (org admins)",
    choices: API_SCOPES,
    default: "user",
    field: "scope",
  },
  {
    flag: "--partition <by>",
    help: "Parquet partitioning by UTC created_at",
    choices: PARTITIONINGS,
    default: "month",
    field: "partitioning",
  },
  {
    flag: "--focus",
    help: "also write the charge ledger as a FOCUS 1.2 dataset, focus/billing_period=YYYY-MM/, beside api_calls (docs/focus.md)",
    default: false,
    field: "focus",
  },
  {
    flag: "--duration-unit <unit>",
    help: "unit of the API's raw duration",
    choices: DURATION_UNITS,
    default: DEFAULT_DURATION_UNIT,
    field: "durationUnit",
  },
  {
    flag: "--token-column <policy>",
    help: "the token column (identifies a credential)",
    // The default first, as FIELD_POLICIES has it for the other two columns.
    choices: ["hash", "drop", "keep"],
    default: DEFAULT_PRIVACY.token,
    field: "privacy.token",
  },
  {
    flag: "--email-column <policy>",
    help: "the email column",
    choices: FIELD_POLICIES,
    default: DEFAULT_PRIVACY.email,
    field: "privacy.email",
  },
  {
    flag: "--ip-address-column <policy>",
    help: "the ip_address column",
    choices: FIELD_POLICIES,
    default: DEFAULT_PRIVACY.ipAddress,
    field: "privacy.ipAddress",
  },
  {
    flag: "--max-price <usd>",
    help: "reject a call priced above this or below minus this (sanity limit)",
    parse: "nonNegativeNumber",
    default: 1_000_000,
    field: "maxPriceUsd",
  },
  {
    flag: "--batch-records <n>",
    help: "records per transaction",
    parse: "positiveInteger",
    default: DEFAULT_BATCH_RECORDS,
    field: "batchRecords",
  },
  {
    flag: "--operations <mode>",
    help: "async operations to fetch: window (calls created within --operations-window, plus stored ones not yet final) or all (the whole history, resumable)",
    choices: [DEFAULT_OPERATIONS_MODE, "all"],
    default: DEFAULT_OPERATIONS_MODE,
    negation: "do not fetch the async operations the calls started",
    field: "operations",
    toConfig: (mode) => mode.value !== false,
  },
  {
    flag: "--operations-window <duration>",
    help: "fetch the operations of calls created this long before the run's clock, not the newest call",
    default: DEFAULT_OPERATIONS_WINDOW,
    field: "operationsWindowMs",
    toConfig: (window, flags) =>
      operationsWindowMs(flags.operations ?? DEFAULT_OPERATIONS_MODE, window, flags.operationsWindow),
  },
  {
    flag: "--operations-concurrency <n>",
    help: "most async operations fetched at once; the pace adapts below it",
    parse: "positiveInteger",
    default: DEFAULT_OPERATIONS_CONCURRENCY,
    field: "operationsConcurrency",
  },
  {
    flag: "--max-pending-rereads <n>",
    help: "calls pending billing from before the lookback window re-read per run (0: none)",
    parse: "nonNegativeInteger",
    default: 1000,
    field: "maxPendingRereads",
  },
  {
    flag: "--check <rules>",
    help: "after the run (completed or partial), run `zoo-usage check --rules <rules>` on the database; an export's own non-zero exit code wins, else check's (1: an alert)",
    default: "none",
    field: "checkRules",
    toConfig: (rules) => (rules.value === "none" ? null : String(rules.value)),
  },
] as const satisfies readonly FlagDefinition[];

/**
 * The flags of `zoo-usage export`, as commander hands them over (all optional). `--operations all`
 * gives "all", `--no-operations` false (commander's negation of the same flag).
 */
export type ExportFlags = FlagsOf<typeof EXPORT_FLAGS>;

/**
 * `--operations` takes "window" (the default) or "all"; `--operations-window` only makes sense with
 * the window, so giving it with "all" is an error rather than a flag silently ignored.
 */
function operationsWindowMs(
  mode: FlagValue,
  window: FlagSetting,
  given: FlagValue | undefined,
): number | null {
  if (mode === false || mode === true || mode === DEFAULT_OPERATIONS_MODE) {
    const windowMs = parseDuration(String(window.value), window.name);
    if (windowMs > 0) return windowMs;
    throw new ZooUsageError({
      code: "config.invalid",
      message: `--operations-window ${JSON.stringify(given)} is empty`,
      hint: "Give a window longer than 0 (35d by default), or --no-operations to fetch none.",
    });
  }
  if (mode !== "all") {
    throw new ZooUsageError({
      code: "config.invalid",
      message: `--operations ${JSON.stringify(mode)} is not a mode`,
      hint: "Use --operations all (the whole history), --operations window (the default) or --no-operations.",
    });
  }
  if (given !== undefined) {
    throw new ZooUsageError({
      code: "config.invalid",
      message: "--operations-window and --operations all contradict each other",
      hint: "Give --operations all to fetch every operation, or --operations-window to fetch a window.",
    });
  }
  return null;
}
