import type { ApiConfig } from "./apiConfig.js";
import type { ExportConfig } from "./exportConfig.js";

/** Shown instead of a secret that is set; an unset one is null. No part of a secret is shown. */
export const REDACTED = "[redacted]";

/**
 * What `--print-config` prints, for every command that has it: the command's config sections as
 * JSON-ready values, with the API token and the export's secret key replaced by REDACTED.
 */
export function printableConfig(config: {
  api?: ApiConfig;
  export?: ExportConfig;
  operation?: unknown;
  warehouse?: unknown;
}): Record<string, unknown> {
  return {
    ...config,
    ...(config.api !== undefined && {
      api: { ...config.api, baseUrl: config.api.baseUrl.toString(), token: redacted(config.api.token) },
    }),
    ...(config.export !== undefined && {
      export: { ...config.export, secretKey: redacted(config.export.secretKey) },
    }),
  };
}

function redacted(secret: string | undefined): string | null {
  return secret === undefined ? null : REDACTED;
}
