import { API_FLAGS } from "../config/apiFlags.js";
import { EXPORT_FLAGS, STORE_TIMEOUT_VARIABLE } from "../config/exportFlags.js";
import { type FlagDefinition, longFlag } from "../config/flagDefinition.js";
import { TOKEN_ENV_VARS } from "../config/tokenVariables.js";
import { ExitCode } from "../errors.js";

/** What each exit code means to a caller of export (the codes themselves come from ExitCode). */
const EXIT_MEANINGS: ReadonlyArray<readonly [number, string]> = [
  [ExitCode.ok, "completed"],
  [ExitCode.alert, "--check reported an alert (the run completed; its JSON line says so)"],
  [ExitCode.internal, "else: unexpected failure (a bug: re-run with --debug and report it)"],
  [ExitCode.usage, "bad arguments, configuration or environment (missing token, bad path)"],
  [ExitCode.api, "the API refused or failed (bad token, retries spent, host unreachable)"],
  [ExitCode.partial, "partial: records rejected (see the rejects table) or the run stopped early"],
  [ExitCode.operationFailed, "operation get: the operation failed, or --wait timed out"],
  [ExitCode.locked, "the database is in use by another process"],
  [ExitCode.interrupted, "interrupted by SIGINT/SIGTERM (the next run resumes)"],
];

/**
 * The text after the options in `export --help`: how to authenticate, the other variables (those of
 * the flags from their tables), the exit codes and two examples. Lines stay within 80 columns, the width commander wraps the options to.
 */
export function exportHelpText(): string {
  const [first, ...others] = TOKEN_ENV_VARS;
  const flagVariables = [...API_FLAGS, ...EXPORT_FLAGS].flatMap((definition: FlagDefinition) =>
    definition.variable === undefined
      ? []
      : [`  ${definition.variable.padEnd(22)}${definition.help} (${longFlag(definition.flag)} beats it)`],
  );
  const codes = EXIT_MEANINGS.map(([code, meaning]) => `  ${String(code).padEnd(4)}${meaning}`);
  return [
    "",
    "Authentication:",
    `  Set ${first} to an API token from https://zoo.dev/account/api-tokens.`,
    `  ${others.join(" and ")} are read when ${first} is unset.`,
    "  A token is never accepted as a flag, and never printed.",
    "",
    "Environment:",
    `  ${first.padEnd(21)}the API token (or ${others.join(", ")})`,
    ...flagVariables,
    `  ${STORE_TIMEOUT_VARIABLE} an s3:// store's limit (--store-timeout beats it)`,
    "  ZOO_USAGE_SECRET_KEY  key of the hashed columns (else a file beside the db)",
    "",
    "Exit codes:",
    ...codes,
    "",
    "Examples:",
    "  # the nightly run: new calls, the lookback window and recent operations",
    `  ${first}=... zoo-usage export --db /srv/zoo/db.duckdb --out /srv/zoo/pq`,
    "",
    "  # rescan the whole history into daily partitions, the summary as JSON",
    "  zoo-usage export --full-refresh --partition day --json",
    "",
  ].join("\n");
}
