import { ZooUsageError } from "../errors.js";

export const DEFAULT_BASE_URL = "https://api.zoo.dev";

/** The API's base URL from `source`, the flag or variable it came from, which errors name. */
export function parseBaseUrl(raw: string, source: string): URL {
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
