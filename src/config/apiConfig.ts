import { z } from "zod";
import type { ClientSettings } from "../api/createClient.js";
import { DEFAULT_RETRY_POLICY } from "../api/retryPolicy.js";
import { ZooUsageError } from "../errors.js";
import { type Env, envValue, flagOrEnv } from "./environment.js";
import { invalidOptions } from "./invalidOptions.js";

export const DEFAULT_BASE_URL = "https://api.zoo.dev";

/**
 * Token variables in the order the official clients use them:
 * the Zoo CLI and Go client, then the Rust/Python and TypeScript legacy names.
 */
export const TOKEN_ENV_VARS = ["ZOO_API_TOKEN", "KITTYCAD_API_TOKEN", "KITTYCAD_TOKEN"] as const;

const positiveInt = z.number().int().positive();

/**
 * The largest response body read, by default. A body is held whole and decoded as one string, and
 * V8 refuses strings past 2^29 - 24 characters (~512 MiB): half that leaves room for the parse. A
 * page of 10,000 calls is tens of MB; an operation with large output files can be more.
 */
export const DEFAULT_MAX_RESPONSE_MB = 256;

/**
 * The value each API flag takes when neither it nor a variable is given: the loader reads these,
 * and the help shows them, so the two cannot disagree.
 */
export const API_DEFAULTS = {
  baseUrl: DEFAULT_BASE_URL,
  maxAttempts: DEFAULT_RETRY_POLICY.maxAttempts,
  maxRetryWaitSeconds: DEFAULT_RETRY_POLICY.maxTotalWaitMs / 1000,
  requestTimeoutSeconds: 60,
  maxResponseMb: DEFAULT_MAX_RESPONSE_MB,
} as const;

const ApiConfigSchema = z.object({
  baseUrl: z.instanceof(URL),
  /** Secret: only ever read from the environment, never from a flag. */
  token: z.string().min(1).optional(),
  tokenSource: z.enum(TOKEN_ENV_VARS).optional(),
  retry: z.object({
    maxAttempts: positiveInt,
    baseDelayMs: z.number().int().nonnegative(),
    maxDelayMs: positiveInt,
    maxTotalWaitMs: z.number().int().nonnegative(),
  }),
  requestTimeoutMs: positiveInt,
  maxResponseBytes: positiveInt,
  debug: z.boolean(),
});
/** How to reach the API: the part of a command's config that the HTTP client is built from. */
export type ApiConfig = z.infer<typeof ApiConfigSchema>;

/** Flags shared by every command that talks to the API; all optional, they override env and defaults. */
export interface ApiFlags {
  baseUrl?: string | undefined;
  maxAttempts?: number | undefined;
  maxRetryWait?: number | undefined;
  requestTimeout?: number | undefined;
  maxResponseMb?: number | undefined;
  debug?: boolean | undefined;
}

/** The flag behind each field, for error messages (the base URL names its own source). */
const FLAG_OF_FIELD: Readonly<Record<string, string>> = {
  "retry.maxAttempts": "--max-attempts",
  "retry.maxTotalWaitMs": "--max-retry-wait",
  requestTimeoutMs: "--request-timeout",
  maxResponseBytes: "--max-response-mb",
};

/** Pure: precedence is flags > environment > defaults. Throws a config error naming the bad input. */
export function loadApiConfig(input: { flags: ApiFlags; env: Env }): ApiConfig {
  const { flags, env } = input;
  const baseUrl = flagOrEnv({ name: "--base-url", value: flags.baseUrl }, "ZOO_HOST", env, DEFAULT_BASE_URL);
  const tokenSource = TOKEN_ENV_VARS.find((name) => envValue(env, name) !== undefined);
  const token = tokenSource === undefined ? undefined : envValue(env, tokenSource)?.trim();
  if (tokenSource !== undefined && token !== undefined) assertHeaderSafeToken(token, tokenSource);
  const candidate = {
    baseUrl: parseBaseUrl(baseUrl.value, baseUrl.from),
    token,
    tokenSource,
    retry: {
      ...DEFAULT_RETRY_POLICY,
      ...(flags.maxAttempts !== undefined && { maxAttempts: flags.maxAttempts }),
      ...(flags.maxRetryWait !== undefined && { maxTotalWaitMs: Math.round(flags.maxRetryWait * 1000) }),
    },
    requestTimeoutMs: Math.round((flags.requestTimeout ?? API_DEFAULTS.requestTimeoutSeconds) * 1000),
    maxResponseBytes: Math.round((flags.maxResponseMb ?? API_DEFAULTS.maxResponseMb) * 1024 * 1024),
    debug: flags.debug ?? false,
  };
  const parsed = ApiConfigSchema.safeParse(candidate);
  if (!parsed.success) {
    throw invalidOptions(
      "configuration",
      parsed.error,
      FLAG_OF_FIELD,
      "Check the command-line flags (see --help).",
    );
  }
  return parsed.data;
}

function parseBaseUrl(raw: string, source: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ZooUsageError({
      code: "config.invalid",
      message: `The base URL from ${source} is not a valid URL: ${JSON.stringify(redactUrlText(raw))}`,
      hint: `Use a full URL such as ${DEFAULT_BASE_URL} or http://127.0.0.1:8080.`,
    });
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new ZooUsageError({
      code: "config.invalid",
      message: `The base URL from ${source} must use http or https, not ${url.protocol.replace(":", "")}`,
      hint: `Use a full URL such as ${DEFAULT_BASE_URL}.`,
    });
  }
  if (url.username || url.password || url.search || url.hash) {
    throw new ZooUsageError({
      code: "config.invalid",
      message: `The base URL from ${source} must not contain credentials, a query or a fragment`,
      hint: "Give only scheme, host, port and an optional path prefix (https://proxy.example/zoo); the token comes from ZOO_API_TOKEN.",
    });
  }
  return url;
}

/**
 * A token goes into the Authorization header as is: a character a header cannot carry (a control
 * character, a line break, a space, anything outside printable ASCII) would fail every request, or
 * be refused by undici as a network error. The message names the variable, never the value.
 */
function assertHeaderSafeToken(token: string, source: string): void {
  const bad = /[^\x21-\x7e]/.exec(token);
  if (bad === null) return;
  const code = bad[0].codePointAt(0) ?? 0;
  const kind =
    code < 0x20 || code === 0x7f
      ? "a control character (a line break?)"
      : code === 0x20
        ? "a space"
        : "a non-ASCII character";
  throw new ZooUsageError({
    code: "config.invalid",
    message: `${source} holds ${kind} at position ${bad.index + 1}, which an HTTP header cannot carry`,
    hint: `Set ${source} to the token alone, as shown on https://zoo.dev/account/api-tokens (printable ASCII, no quotes or spaces).`,
  });
}

/**
 * A URL that did not parse, fit to show: credentials (user:password@) and anything after ? or #
 * are replaced, since such a string may hold a secret.
 */
export function redactUrlText(raw: string): string {
  return raw
    .replace(
      /^([a-z][a-z0-9+.-]*:\/\/)?.*@/is,
      (_, scheme: string | undefined) => `${scheme ?? ""}[redacted]@`,
    )
    .replace(/[?#].*$/s, "?[redacted]");
}

/**
 * What the HTTP client is built from: the API config with its token, or a clear error naming the
 * variables to set when there is none.
 */
export function clientSettings(config: ApiConfig): ClientSettings {
  if (config.token === undefined) {
    throw new ZooUsageError({
      code: "config.missing_token",
      message: `No API token: none of ${TOKEN_ENV_VARS.join(", ")} is set`,
      hint: "Export ZOO_API_TOKEN=<your token> (tokens are never accepted on the command line, where other users could read them).",
    });
  }
  return {
    baseUrl: config.baseUrl,
    token: config.token,
    retry: config.retry,
    requestTimeoutMs: config.requestTimeoutMs,
    maxResponseBytes: config.maxResponseBytes,
  };
}
