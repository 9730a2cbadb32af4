import { z } from "zod";
import { API_SCOPES } from "../api/scope.js";
import { S3_ADDRESSINGS, S3_CHECKSUM_CALCULATIONS } from "../destination/s3Settings.js";
import { PARTITIONINGS } from "../load/partitioning.js";
import { DURATION_UNITS } from "../transform/durationUnit.js";
import { FIELD_POLICIES } from "../transform/privacy.js";
import { type Env, envValue } from "./environment.js";
import { EXPORT_FLAGS, type ExportFlags, STORE_TIMEOUT_VARIABLE } from "./exportFlags.js";
import { configFromFlags } from "./flagDefinition.js";
import { invalidOptions } from "./invalidOptions.js";

export type { ExportFlags };

/** The export's key, when given; otherwise a key file beside the database. Never a flag. */
const SECRET_KEY_VARIABLE = "ZOO_USAGE_SECRET_KEY";

const ExportConfigSchema = z.object({
  dbPath: z.string().min(1),
  /** An absolute directory, or a normalised s3://bucket/prefix (outLocation.ts). */
  outDir: z.string().min(1),
  /** A new --out holding files or objects this export did not write is taken, not refused. */
  adoptOut: z.boolean(),
  /** How an s3:// --out is reached; unused for a directory. */
  s3: z.object({
    addressing: z.enum(S3_ADDRESSINGS),
    /** Per attempt of a store request (--store-timeout): at least a millisecond. */
    timeoutMs: z.number().int().positive(),
    /** A custom endpoint (MinIO, R2, B2, GCS interoperability); null for AWS S3 itself. */
    endpoint: z.url({ protocol: /^https?$/ }).nullable(),
    /** Null: the SDK's own (the profile's region), or us-east-1 with a custom endpoint. */
    region: z.string().min(1).nullable(),
    /** Keys from the run's environment; null: the SDK's chain finds them (profile, SSO, a role). */
    credentials: z
      .object({ accessKeyId: z.string(), secretAccessKey: z.string(), sessionToken: z.string().optional() })
      .nullable(),
    /** AWS_REQUEST_CHECKSUM_CALCULATION, any case; null: the SDK's own (when_supported unless a profile says). */
    requestChecksums: z.enum(S3_CHECKSUM_CALCULATIONS).nullable(),
  }),
  /** Check every partition file under --out and rewrite the unreadable ones this run (--verify-out). */
  verifyOut: z.boolean(),
  /** The API clamps larger pages to 10000, so more would only mislead the request maths. */
  limit: z.number().int().min(1).max(10_000),
  lookbackMs: z.number().int().nonnegative(),
  fullRefresh: z.boolean(),
  /** A secret key other than the one the database records is taken (warehouseKey.ts). */
  newSecretKey: z.boolean(),
  partitioning: z.enum(PARTITIONINGS as ["month", "day"]),
  /** Also write the view focus_costs as a Parquet dataset by billing period (--focus). */
  focus: z.boolean(),
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

/** The AWS SDK's own variable for when requests carry a checksum (WHEN_SUPPORTED, WHEN_REQUIRED). */
const CHECKSUM_VARIABLE = "AWS_REQUEST_CHECKSUM_CALCULATION";

/**
 * The S3 client's endpoint, region and checksum setting, from the variables every AWS SDK and CLI reads: a
 * service-specific endpoint beats the general one, AWS_REGION beats AWS_DEFAULT_REGION.
 */
function s3FromEnv(env: Env): {
  endpoint?: FromVariable;
  region?: FromVariable;
  checksums?: FromVariable;
} {
  const first = (...variables: string[]): FromVariable | undefined => {
    for (const name of variables) {
      const value = envValue(env, name);
      if (value !== undefined) return { value, name };
    }
    return undefined;
  };
  const endpoint = first("AWS_ENDPOINT_URL_S3", "AWS_ENDPOINT_URL");
  const region = first("AWS_REGION", "AWS_DEFAULT_REGION");
  const checksums = first(CHECKSUM_VARIABLE);
  return { ...(endpoint && { endpoint }), ...(region && { region }), ...(checksums && { checksums }) };
}

/**
 * AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (with AWS_SESSION_TOKEN) of the environment the CLI
 * was handed, so that the keys the run uses are the ones its caller gave; without both, null.
 */
function s3CredentialsFromEnv(env: Env): ExportConfig["s3"]["credentials"] {
  const accessKeyId = envValue(env, "AWS_ACCESS_KEY_ID");
  const secretAccessKey = envValue(env, "AWS_SECRET_ACCESS_KEY");
  if (accessKeyId === undefined || secretAccessKey === undefined) return null;
  const sessionToken = envValue(env, "AWS_SESSION_TOKEN");
  return { accessKeyId, secretAccessKey, ...(sessionToken !== undefined && { sessionToken }) };
}

interface FromVariable {
  value: string;
  name: string;
}

/**
 * Pure: flags > environment > defaults as EXPORT_FLAGS declares them, validated, with errors naming
 * the flag or variable the value came from.
 */
export function loadExportConfig(input: { flags: ExportFlags; env: Env }): ExportConfig {
  const { flags, env } = input;
  const { candidate, names } = configFromFlags<ExportConfig>(EXPORT_FLAGS, flags, env);
  const dbPath = String(candidate.dbPath);
  const s3 = s3FromEnv(env);
  if (s3.endpoint !== undefined) names["s3.endpoint"] = s3.endpoint.name;
  if (s3.region !== undefined) names["s3.region"] = s3.region.name;
  // --store-timeout beats its variable; text that is not a number gives NaN, which the schema refuses.
  const storeTimeout = flags.storeTimeout === undefined ? envValue(env, STORE_TIMEOUT_VARIABLE) : undefined;
  if (storeTimeout !== undefined) names["s3.timeoutMs"] = STORE_TIMEOUT_VARIABLE;
  if (s3.checksums !== undefined) names["s3.requestChecksums"] = s3.checksums.name;
  const parsed = ExportConfigSchema.safeParse({
    ...candidate,
    s3: {
      ...(candidate.s3 as object),
      endpoint: s3.endpoint?.value ?? null,
      region: s3.region?.value ?? null,
      credentials: s3CredentialsFromEnv(env),
      ...(storeTimeout !== undefined && { timeoutMs: Math.round(Number(storeTimeout) * 1000) }),
      requestChecksums: s3.checksums?.value.toLowerCase() ?? null,
    },
    secretKey: envValue(env, SECRET_KEY_VARIABLE),
    keyFile: `${dbPath.replace(/\.duckdb$/, "")}.key`,
  });
  if (!parsed.success) {
    throw invalidOptions("export options", parsed.error, names, "See zoo-usage export --help.");
  }
  return parsed.data;
}
