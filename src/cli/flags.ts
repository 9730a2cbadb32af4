import { type Command, Option } from "commander";
import { API_FLAGS } from "../config/apiFlags.js";
import { EXPORT_FLAGS } from "../config/exportFlags.js";
import { type FlagDefinition, type FlagParse, longFlag, takesValue } from "../config/flagDefinition.js";
import { LOG_FORMATS } from "../log/logger.js";
import { nonNegativeInteger, nonNegativeNumber, positiveInteger } from "./parseNumber.js";

/**
 * A flag's description ending in its default, in the form commander prints for its own defaults.
 * The loaders in src/config apply the defaults (a flag beats a variable, which beats the default),
 * so commander holds none and the help reads them from the same constants.
 */
export function withDefault(description: string, value: string | number): string {
  return `${description} (default: ${value})`;
}

/**
 * The flags of every command that talks to the API (export, operation get), with `--print-config`
 * listed just before `--debug`.
 */
export function addApiOptions(command: Command): Command {
  const isDebug = (definition: FlagDefinition) => definition.field === "debug";
  addFlagOptions(
    command,
    API_FLAGS.filter((definition) => !isDebug(definition)),
    true,
  ).option("--print-config", "print the effective configuration (token redacted) and exit");
  return addFlagOptions(command, API_FLAGS.filter(isDebug), true);
}

/**
 * The flags of export, and of the demo, which runs an export; the demo reads no variable
 * (`readsEnv` false), so its help names none, and has defaults of its own (`defaults`, by config
 * field).
 */
export function addExportOptions(
  command: Command,
  readsEnv = true,
  defaults: Readonly<Record<string, string>> = {},
): Command {
  return addFlagOptions(command, EXPORT_FLAGS, readsEnv, defaults)
    .option("--json", "print the run summary as one line of JSON on stdout, whatever the outcome")
    .addOption(logFormatOption())
    .option("--no-summary", "do not print the spend summary after the run");
}

const PARSERS: Readonly<Record<FlagParse, (value: string) => number>> = {
  positiveInteger,
  nonNegativeInteger,
  nonNegativeNumber,
};

/**
 * Commander's options for a table of flags, in its order. A flag with a negation is followed by
 * `--no-<name>`: defined after it, commander sets the same key to false, and leaves it undefined
 * when neither is given.
 */
export function addFlagOptions(
  command: Command,
  definitions: readonly FlagDefinition[],
  readsEnv: boolean,
  defaults: Readonly<Record<string, string>> = {},
): Command {
  for (const definition of definitions) {
    const option = new Option(definition.flag, flagHelp(definition, readsEnv, defaults[definition.field]));
    if (definition.choices !== undefined) option.choices(definition.choices);
    if (definition.parse !== undefined) option.argParser(PARSERS[definition.parse]);
    command.addOption(option);
    if (definition.negation !== undefined) {
      command.addOption(new Option(longFlag(definition.flag).replace(/^--/, "--no-"), definition.negation));
    }
  }
  return command;
}

/** A flag's help: a value flag's ends in its default, after the variable read before it. */
function flagHelp(definition: FlagDefinition, readsEnv: boolean, ownDefault?: string): string {
  if (!takesValue(definition)) return definition.help;
  const { variable } = definition;
  const value = ownDefault ?? String(definition.default);
  return withDefault(
    definition.help,
    variable !== undefined && readsEnv ? `$${variable}, else ${value}` : value,
  );
}

/**
 * `--log-format`, on every command that writes log lines or errors to stderr: with `json`, each of
 * them is one JSON object a line (main.ts prints the error in the same format).
 */
export function logFormatOption(): Option {
  return new Option("--log-format <format>", "stderr log lines: text, or json (one object a line)")
    .choices(LOG_FORMATS)
    .default("text");
}
