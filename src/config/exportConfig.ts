import path from "node:path";
import { z } from "zod";
import { API_SCOPES } from "../api/scope.js";
import { ZooUsageError } from "../errors.js";
import { PARTITIONINGS } from "../load/partitioning.js";
import { DEFAULT_DURATION_UNIT, DURATION_UNITS } from "../transform/durationUnit.js";
import { DEFAULT_PRIVACY, FIELD_POLICIES } from "../transform/privacy.js";
import { DEFAULT_DB, databasePath } from "./databaseSetting.js";
import { type Env, envValue, flagOrEnv } from "./environment.js";
import { invalidOptions } from "./invalidOptions.js";

export const DEFAULT_OUT = "./zoo-usage/parquet";
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

/**
 * The value each export flag takes when neither it nor a variable is given: the loader reads these,
 * and the help shows them, so the two cannot disagree.
 */
export const EXPORT_DEFAULTS = {
  db: DEFAULT_DB,
  out: DEFAULT_OUT,
  limit: 1000,
  lookback: "3d",
  partition: "month",
  durationUnit: DEFAULT_DURATION_UNIT,
  tokenColumn: DEFAULT_PRIVACY.token,
  emailColumn: DEFAULT_PRIVACY.email,
  ipAddressColumn: DEFAULT_PRIVACY.ipAddress,
  maxPriceUsd: 1_000_000,
  batchRecords: DEFAULT_BATCH_RECORDS,
  operations: "window",
  operationsWindow: DEFAULT_OPERATIONS_WINDOW,
  operationsConcurrency: DEFAULT_OPERATIONS_CONCURRENCY,
  maxPendingRereads: 1000,
  scope: "user",
} as const;

/** The flags of `zoo-usage export`, as commander hands them over (all optional). */
export interface ExportFlags {
  db?: string | undefined;
  out?: string | undefined;
  limit?: number | undefined;
  lookback?: string | undefined;
  fullRefresh?: boolean | undefined;
  partition?: string | undefined;
  scope?: string | undefined;
  durationUnit?: string | undefined;
  tokenColumn?: string | undefined;
  emailColumn?: string | undefined;
  ipAddressColumn?: string | undefined;
  maxPrice?: number | undefined;
  batchRecords?: number | undefined;
  /** `--operations all` gives "all", `--no-operations` false (commander's negation of the same flag). */
  operations?: boolean | string | undefined;
  operationsWindow?: string | undefined;
  operationsConcurrency?: number | undefined;
  maxPendingRereads?: number | undefined;
}

const ExportConfigSchema = z.object({
  dbPath: z.string().min(1),
  outDir: z.string().min(1),
  /** The API clamps larger pages to 10000, so more would only mislead the request maths. */
  limit: z.number().int().min(1).max(10_000),
  lookbackMs: z.number().int().nonnegative(),
  fullRefresh: z.boolean(),
  partitioning: z.enum(PARTITIONINGS as ["month", "day"]),
  /** Whose calls: the token's own user or the whole organisation it administers. */
  scope: z.enum(API_SCOPES as ["user", "org"]),
  durationUnit: z.enum(DURATION_UNITS as ["ns", "us", "ms", "s"]),
  privacy: z.object({
    token: z.enum(FIELD_POLICIES as ["keep", "hash", "drop"]),
    email: z.enum(FIELD_POLICIES as ["keep", "hash", "drop"]),
    ipAddress: z.enum(FIELD_POLICIES as ["keep", "hash", "drop"]),
  }),
  maxPriceUsd: z.number().positive(),
  batchRecords: z.number().int().min(1),
  operations: z.boolean(),
  /**
   * Operations of calls created this long before the run's clock are fetched (plus every stored one
   * not yet final); null with `--operations all`, which fetches the whole history's.
   */
  operationsWindowMs: z.number().int().positive().nullable(),
  /**
   * The most GET /async/operations/{id} in flight: the pace starts lower and adapts up to it,
   * halving when the API refuses (AdaptiveConcurrency).
   */
  operationsConcurrency: z.number().int().min(1).max(64),
  /**
   * Calls pending billing from before the lookback window re-read one by one per run (one request
   * each): a cap on what a night can cost, not a correctness limit, since the rest wait for the next run.
   */
  maxPendingRereads: z.number().int().min(0).max(1_000_000),
  /** Optional secret key from ZOO_USAGE_SECRET_KEY; otherwise a key file beside the database. */
  secretKey: z.string().optional(),
  keyFile: z.string(),
});
export type ExportConfig = z.infer<typeof ExportConfigSchema>;

/** The flag behind each field, for error messages (the paths name their own source). */
const FLAG_OF_FIELD: Readonly<Record<string, string>> = {
  limit: "--limit",
  lookbackMs: "--lookback",
  fullRefresh: "--full-refresh",
  partitioning: "--partition",
  scope: "--scope",
  durationUnit: "--duration-unit",
  "privacy.token": "--token-column",
  "privacy.email": "--email-column",
  "privacy.ipAddress": "--ip-address-column",
  maxPriceUsd: "--max-price",
  batchRecords: "--batch-records",
  operations: "--operations",
  operationsWindowMs: "--operations-window",
  operationsConcurrency: "--operations-concurrency",
  maxPendingRereads: "--max-pending-rereads",
};

/** Pure: flags > environment > defaults, validated, with errors naming the flag or variable. */

export function loadExportConfig(input: { flags: ExportFlags; env: Env }): ExportConfig {
  const { flags, env } = input;
  const dbPath = databasePath(flags.db, env);
  const out = flagOrEnv({ name: "--out", value: flags.out }, "ZOO_USAGE_OUT", env, DEFAULT_OUT);
  const parsed = ExportConfigSchema.safeParse({
    dbPath,
    outDir: out.value,
    limit: flags.limit ?? EXPORT_DEFAULTS.limit,
    lookbackMs: parseDuration(flags.lookback ?? EXPORT_DEFAULTS.lookback, "--lookback"),
    fullRefresh: flags.fullRefresh ?? false,
    partitioning: flags.partition ?? EXPORT_DEFAULTS.partition,
    scope: flags.scope ?? EXPORT_DEFAULTS.scope,
    durationUnit: flags.durationUnit ?? EXPORT_DEFAULTS.durationUnit,
    privacy: {
      token: flags.tokenColumn ?? EXPORT_DEFAULTS.tokenColumn,
      email: flags.emailColumn ?? EXPORT_DEFAULTS.emailColumn,
      ipAddress: flags.ipAddressColumn ?? EXPORT_DEFAULTS.ipAddressColumn,
    },
    maxPriceUsd: flags.maxPrice ?? EXPORT_DEFAULTS.maxPriceUsd,
    batchRecords: flags.batchRecords ?? EXPORT_DEFAULTS.batchRecords,
    operations: flags.operations !== false,
    operationsWindowMs: operationsWindowOf(flags),
    operationsConcurrency: flags.operationsConcurrency ?? EXPORT_DEFAULTS.operationsConcurrency,
    maxPendingRereads: flags.maxPendingRereads ?? EXPORT_DEFAULTS.maxPendingRereads,
    secretKey: envValue(env, "ZOO_USAGE_SECRET_KEY"),
    keyFile: `${dbPath.replace(/\.duckdb$/, "")}.key`,
  });
  if (!parsed.success) {
    const names = { ...FLAG_OF_FIELD, outDir: out.from };
    throw invalidOptions("export options", parsed.error, names, "See zoo-usage export --help.");
  }
  return { ...parsed.data, outDir: path.resolve(parsed.data.outDir) };
}

const UNIT_MS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000 };

/**
 * `--operations` takes "window" (the default) or "all"; `--operations-window` only makes sense with
 * the window, so giving it with "all" is an error rather than a flag silently ignored.
 */
function operationsWindowOf(flags: ExportFlags): number | null {
  const mode = flags.operations ?? EXPORT_DEFAULTS.operations;
  if (mode === false || mode === true || mode === "window") {
    const windowMs = parseDuration(
      flags.operationsWindow ?? EXPORT_DEFAULTS.operationsWindow,
      "--operations-window",
    );
    if (windowMs > 0) return windowMs;
    throw new ZooUsageError({
      code: "config.invalid",
      message: `--operations-window ${JSON.stringify(flags.operationsWindow)} is empty`,
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
  if (flags.operationsWindow !== undefined) {
    throw new ZooUsageError({
      code: "config.invalid",
      message: "--operations-window and --operations all contradict each other",
      hint: "Give --operations all to fetch every operation, or --operations-window to fetch a window.",
    });
  }
  return null;
}

/** A duration flag's value ("3d", "36h", "90m", or a bare number of days) in ms; `flag` names it in errors. */
export function parseDuration(text: string, flag: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*([mhd]?)\s*$/.exec(text);
  if (match === null) {
    throw new ZooUsageError({
      code: "config.invalid",
      message: `${flag} ${JSON.stringify(text)} is not a duration`,
      hint: "Use a number of days, hours or minutes: 3d, 36h, 90m.",
    });
  }
  return Math.round(Number(match[1]) * (UNIT_MS[match[2] || "d"] ?? UNIT_MS.d ?? 0));
}
