import { readFileSync } from "node:fs";

/**
 * The product token of the User-Agent the exporter sends. The API lists every request it serves
 * as a call of the token's user, with this header as `user_agent`: the warehouse recognises the
 * exporter's own calls by it (sql/views/calls.sql matches `zoo-usage/%`).
 */
export const USER_AGENT_PRODUCT = "zoo-usage";

/** `zoo-usage/<version> (+https://github.com/zoo-usage/zoo-usage)`: distinctive, and says who sends it. */
export function exporterUserAgent(): string {
  return `${USER_AGENT_PRODUCT}/${packageVersion()} (+https://github.com/zoo-usage/zoo-usage)`;
}

/** The version in package.json, which sits two levels above both src/api and dist/api. */
function packageVersion(): string {
  const text = readFileSync(new URL("../../package.json", import.meta.url), "utf8");
  return (JSON.parse(text) as { version: string }).version;
}
