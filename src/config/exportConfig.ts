import path from "node:path";
import { z } from "zod";
import { API_SCOPES } from "../api/scope.js";
import { PARTITIONINGS } from "../load/partitioning.js";
import { DURATION_UNITS } from "../transform/durationUnit.js";
import { FIELD_POLICIES } from "../transform/privacy.js";
import { type Env, envValue } from "./environment.js";
import { EXPORT_FLAGS, type ExportFlags } from "./exportFlags.js";
import { configFromFlags } from "./flagDefinition.js";
import { invalidOptions } from "./invalidOptions.js";

export type { ExportFlags };

/** The export's key, when given; otherwise a key file beside the database. Never a flag. */
const SECRET_KEY_VARIABLE = "ZOO_USAGE_SECRET_KEY";

const ExportConfigSchema = z.object({
  dbPath: z.string().min(1),
  /** Made absolute once known not to be empty (path.resolve("") would be the working directory). */
  outDir: z
    .string()
    .min(1)
    .transform((dir) => path.resolve(dir)),
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
  /** The rules file `zoo-usage check` judges after the run (--check); null for no check. */
  checkRules: z.string().min(1).nullable(),
  /** Optional secret key from ZOO_USAGE_SECRET_KEY; otherwise a key file beside the database. */
  secretKey: z.string().optional(),
  keyFile: z.string(),
});
export type ExportConfig = z.infer<typeof ExportConfigSchema>;

/**
 * Pure: flags > environment > defaults as EXPORT_FLAGS declares them, validated, with errors naming
 * the flag or variable the value came from.
 */
export function loadExportConfig(input: { flags: ExportFlags; env: Env }): ExportConfig {
  const { flags, env } = input;
  const { candidate, names } = configFromFlags<ExportConfig>(EXPORT_FLAGS, flags, env);
  const dbPath = String(candidate.dbPath);
  const parsed = ExportConfigSchema.safeParse({
    ...candidate,
    secretKey: envValue(env, SECRET_KEY_VARIABLE),
    keyFile: `${dbPath.replace(/\.duckdb$/, "")}.key`,
  });
  if (!parsed.success) {
    throw invalidOptions("export options", parsed.error, names, "See zoo-usage export --help.");
  }
  return parsed.data;
}
