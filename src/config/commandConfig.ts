import { type ApiConfig, type ApiFlags, loadApiConfig } from "./apiConfig.js";
import { DEMO_DEFAULTS, OPERATION_GET_DEFAULTS } from "./commandDefaults.js";
import { databasePath } from "./databaseSetting.js";
import type { Env } from "./environment.js";
import { type ExportConfig, type ExportFlags, loadExportConfig } from "./exportConfig.js";
import { loadReportConfig, type ReportConfig, type ReportFlags } from "./reportConfig.js";

/**
 * Flags and environment to a typed config, one function per command. Every command reads its
 * variables through the same rule (environment.ts: an empty variable counts as unset; a flag beats
 * a variable, which beats the default), and every error names the flag or variable the user wrote.
 * A config is made of sections (api, export, report, operation): `--print-config` prints any of
 * them in one shape (printableConfig.ts).
 */

export interface ExportCommandConfig {
  api: ApiConfig;
  export: ExportConfig;
}

export function exportCommandConfig(input: { flags: ApiFlags & ExportFlags; env: Env }): ExportCommandConfig {
  return { api: loadApiConfig(input), export: loadExportConfig(input) };
}

export { DEMO_DEFAULTS, OPERATION_GET_DEFAULTS };

export interface DemoFlags extends ExportFlags {
  calls?: number | undefined;
  debug?: boolean | undefined;
}

export interface DemoCommandConfig {
  export: ExportConfig;
  /** Calls in the simulated history. */
  calls: number;
  debug: boolean;
}

/**
 * The demo reads no variable: it exports a simulated history into ./zoo-usage-demo/ (or --db,
 * --out), so a ZOO_USAGE_DB or ZOO_USAGE_SECRET_KEY set for real exports never receives simulated
 * data. Its API settings come from the simulator once it runs (demoApiConfig).
 */
export function demoCommandConfig(input: { flags: DemoFlags; env: Env }): DemoCommandConfig {
  const flags: DemoFlags = {
    ...input.flags,
    db: input.flags.db ?? DEMO_DEFAULTS.db,
    out: input.flags.out ?? DEMO_DEFAULTS.out,
    scope: input.flags.scope ?? DEMO_DEFAULTS.scope,
  };
  return {
    // Its hashes are of simulated calls: a demo database whose key file is gone goes on with a new
    // key. A real database at its path is still refused, by its owner check, before that key is
    // recorded (warehouseKey.ts).
    export: { ...loadExportConfig({ flags, env: {} }), newSecretKey: true },
    calls: input.flags.calls ?? DEMO_DEFAULTS.calls,
    debug: input.flags.debug ?? false,
  };
}

/** The demo's API settings: the in-process simulator's URL and its own credential. */
export function demoApiConfig(simulator: { url: string; token: string; debug: boolean }): ApiConfig {
  return loadApiConfig({
    flags: { baseUrl: simulator.url, debug: simulator.debug },
    env: { ZOO_API_TOKEN: simulator.token },
  });
}

export function reportCommandConfig(input: { flags: ReportFlags; env: Env }): { report: ReportConfig } {
  return { report: loadReportConfig(input) };
}

export interface OperationGetFlags extends ApiFlags {
  json?: boolean | undefined;
  wait?: boolean | undefined;
  /** Seconds. */
  timeout?: number | undefined;
  saveOutputs?: string | undefined;
  fromDb?: boolean | undefined;
  db?: string | undefined;
}

/**
 * `operation get` asks the API, or with --from-db reads the warehouse: then neither a token nor the
 * API settings are read, so a variable meant for the API cannot stop a look at the database.
 */
export type OperationGetCommandConfig =
  | {
      api: ApiConfig;
      operation: {
        id: string;
        json: boolean;
        wait: boolean;
        timeoutMs: number;
        saveOutputsDir: string | undefined;
      };
    }
  | { warehouse: { dbPath: string }; operation: { id: string; json: boolean } };

export function operationGetCommandConfig(input: {
  id: string;
  flags: OperationGetFlags;
  env: Env;
}): OperationGetCommandConfig {
  const { id, flags, env } = input;
  const json = flags.json ?? false;
  if (flags.fromDb) return { warehouse: { dbPath: databasePath(flags.db, env) }, operation: { id, json } };
  return {
    api: loadApiConfig({ flags, env }),
    operation: {
      id,
      json,
      wait: flags.wait ?? false,
      timeoutMs: (flags.timeout ?? OPERATION_GET_DEFAULTS.timeoutSeconds) * 1000,
      saveOutputsDir: flags.saveOutputs,
    },
  };
}
