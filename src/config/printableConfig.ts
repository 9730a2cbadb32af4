import type { ApiConfig } from "./apiConfig.js";
import type { ExportConfig } from "./exportConfig.js";

/** Shown instead of a secret that is set; an unset one is null. No part of a secret is shown. */
export const REDACTED = "[redacted]";

/**
 * What `--print-config` prints, for every command that has it: the command's config sections as
 * JSON-ready values, with the API token, the export's secret key and the S3 keys replaced by
 * REDACTED. Keys are
 * snake_case at every depth, as in every other JSON the CLI prints (the config's own fields are
 * camelCase, as TypeScript's are).
 */
export function printableConfig(config: {
  api?: ApiConfig;
  export?: ExportConfig;
  operation?: unknown;
  warehouse?: unknown;
}): Record<string, unknown> {
  const sections = {
    ...config,
    ...(config.api !== undefined && {
      api: { ...config.api, baseUrl: config.api.baseUrl.toString(), token: redacted(config.api.token) },
    }),
    ...(config.export !== undefined && {
      export: {
        ...config.export,
        secretKey: redacted(config.export.secretKey),
        s3: {
          ...config.export.s3,
          credentials: config.export.s3.credentials === null ? null : REDACTED,
        },
      },
    }),
  };
  return snakeCaseKeys(sections) as Record<string, unknown>;
}

function redacted(secret: string | undefined): string | null {
  return secret === undefined ? null : REDACTED;
}

/** A copy of a JSON-ready value with every object key in snake_case: "maxTotalWaitMs" -> "max_total_wait_ms". */
function snakeCaseKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(snakeCaseKeys);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [snakeCase(key), snakeCaseKeys(inner)]),
  );
}

function snakeCase(key: string): string {
  return key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}
