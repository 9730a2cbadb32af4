import { DEFAULT_RETRY_POLICY } from "../api/retryPolicy.js";
import { DEFAULT_BASE_URL, parseBaseUrl } from "./baseUrl.js";
import type { FlagDefinition, FlagSetting, FlagsOf } from "./flagDefinition.js";

/**
 * The largest response body read, by default. A body is held whole and decoded as one string, and
 * V8 refuses strings past 2^29 - 24 characters (~512 MiB): half that leaves room for the parse. A
 * page of 10,000 calls is tens of MB; an operation with large output files can be more.
 */
export const DEFAULT_MAX_RESPONSE_MB = 256;

const times = (factor: number) => (setting: FlagSetting) => Math.round(Number(setting.value) * factor);

/**
 * The flags of every command that talks to the API (export, operation get), in the order the help
 * lists them: each one's help, default, variable and the ApiConfig field it sets. The loader
 * (apiConfig.ts) and the CLI's options (cli/flags.ts) are both read from this table.
 */
export const API_FLAGS = [
  {
    flag: "--base-url <url>",
    help: "API base URL",
    default: DEFAULT_BASE_URL,
    variable: "ZOO_HOST",
    field: "baseUrl",
    toConfig: (url) => parseBaseUrl(String(url.value), url.name),
  },
  {
    flag: "--max-attempts <n>",
    help: "attempts per request, first included",
    parse: "positiveInteger",
    default: DEFAULT_RETRY_POLICY.maxAttempts,
    field: "retry.maxAttempts",
  },
  {
    flag: "--max-retry-wait <seconds>",
    help: "total time a run may spend waiting to retry",
    parse: "nonNegativeNumber",
    default: DEFAULT_RETRY_POLICY.maxTotalWaitMs / 1000,
    field: "retry.maxTotalWaitMs",
    toConfig: times(1000),
  },
  {
    flag: "--request-timeout <seconds>",
    help: "time limit for one request, connect to last byte",
    parse: "nonNegativeNumber",
    default: 60,
    field: "requestTimeoutMs",
    toConfig: times(1000),
  },
  {
    flag: "--max-response-mb <n>",
    help: "largest response body accepted, in MiB",
    parse: "nonNegativeNumber",
    default: DEFAULT_MAX_RESPONSE_MB,
    field: "maxResponseBytes",
    toConfig: times(1024 * 1024),
  },
  {
    flag: "--debug",
    help: "log every request and show stack traces",
    default: false,
    field: "debug",
  },
] as const satisfies readonly FlagDefinition[];

/** Flags shared by every command that talks to the API; all optional, they override env and defaults. */
export type ApiFlags = FlagsOf<typeof API_FLAGS>;
