import { z } from "zod";
import type { ClientSettings } from "../api/createClient.js";
import { DEFAULT_RETRY_POLICY } from "../api/retryPolicy.js";
import { ZooUsageError } from "../errors.js";
import { API_FLAGS, type ApiFlags } from "./apiFlags.js";
import { type Env, envValue } from "./environment.js";
import { configFromFlags } from "./flagDefinition.js";
import { invalidOptions } from "./invalidOptions.js";
import { TOKEN_ENV_VARS } from "./tokenVariables.js";

export type { ApiFlags };

export { TOKEN_ENV_VARS };

const positiveInt = z.number().int().positive();

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

/**
 * Pure: precedence is flags > environment > defaults, as API_FLAGS declares them. Throws a config
 * error naming the bad input. The token comes from the environment only.
 */
export function loadApiConfig(input: { flags: ApiFlags; env: Env }): ApiConfig {
  const { flags, env } = input;
  // Without a token, the first variable that is set but blank is its source: clientSettings then
  // says it is blank rather than not set.
  const tokenSource =
    TOKEN_ENV_VARS.find((name) => envValue(env, name) !== undefined) ??
    TOKEN_ENV_VARS.find((name) => env[name] !== undefined);
  const token = tokenSource === undefined ? undefined : envValue(env, tokenSource)?.trim();
  if (tokenSource !== undefined && token !== undefined) assertHeaderSafeToken(token, tokenSource);
  const { candidate, names } = configFromFlags<ApiConfig>(API_FLAGS, flags, env);
  const parsed = ApiConfigSchema.safeParse({
    ...candidate,
    token,
    tokenSource,
    // The retry's delays have no flag: the policy's own.
    retry: { ...DEFAULT_RETRY_POLICY, ...(candidate.retry as object) },
  });
  if (!parsed.success) {
    throw invalidOptions("configuration", parsed.error, names, "Check the command-line flags (see --help).");
  }
  return parsed.data;
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
 * What the HTTP client is built from: the API config with its token, or a clear error naming the
 * variables to set when there is none.
 */
export function clientSettings(config: ApiConfig): ClientSettings {
  if (config.token === undefined && config.tokenSource !== undefined) {
    throw new ZooUsageError({
      code: "config.blank_token",
      message: `${config.tokenSource} is set but blank: it holds no token`,
      hint: `Set ${config.tokenSource} to the token itself (a secret that expanded to nothing, or only spaces, leaves it blank).`,
    });
  }
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
