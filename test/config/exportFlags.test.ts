import { Command } from "commander";
import { describe, expect, test } from "vitest";
import { addApiOptions, logFormatOption } from "../../src/cli/flags.js";
import { nonNegativeInteger, nonNegativeNumber, positiveInteger } from "../../src/cli/parseNumber.js";
import { buildProgram } from "../../src/cli/program.js";
import { type ExportConfig, loadExportConfig } from "../../src/config/exportConfig.js";
import { type ExportFlags, EXPORT_FLAGS as TABLE } from "../../src/config/exportFlags.js";
import { attributeName, type FlagDefinition, longFlag, takesValue } from "../../src/config/flagDefinition.js";

/**
 * A flag of `export` is written in EXPORT_FLAGS (its help, default, variable and config field), in
 * the config schema, and in the code that uses the config: commander's options, the flags' type,
 * the flag an error names and the flags-to-config mapping all come from the table. These tests hold
 * the table and what is derived from it to each other, so a flag written anywhere else fails here.
 */

/** Fields no flag sets: the secret key comes only from its variable, the key file from the database. */
const WITHOUT_FLAG = ["secretKey", "keyFile"];

/** The export command's own options that shape its output, not its config. */
const OUTPUT_FLAGS = ["--json", "--log-format <format>", "--no-summary"];

const PARSERS = { positiveInteger, nonNegativeInteger, nonNegativeNumber };

/** The table as its definitions' common type, for reading the properties only some have. */
const EXPORT_FLAGS: readonly FlagDefinition[] = TABLE;

const DEFAULT_CONFIG = loadExportConfig({ flags: {}, env: {} });

/** Every leaf of a config as "path" -> value: "limit", "privacy.token". */
function leaves(value: unknown, prefix = ""): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const [key, inner] of Object.entries(value as Record<string, unknown>)) {
    const path = prefix + key;
    if (inner !== null && typeof inner === "object") {
      for (const [innerPath, leaf] of leaves(inner, `${path}.`)) out.set(innerPath, leaf);
    } else out.set(path, inner);
  }
  return out;
}

/** The config paths whose values differ between two configs. */
function changedFields(config: ExportConfig, base: ExportConfig): string[] {
  const before = leaves(base);
  return [...leaves(config)].filter(([path, value]) => before.get(path) !== value).map(([path]) => path);
}

/** A valid value other than the default, as commander would hand it over. */
function otherValue(definition: FlagDefinition): string | number | boolean {
  if (definition.negation !== undefined) return false;
  if (!takesValue(definition)) return true;
  if (definition.choices !== undefined) {
    const other = definition.choices.find((choice) => choice !== definition.default);
    if (other === undefined) throw new Error(`${definition.flag} has no choice but its default`);
    return other;
  }
  if (definition.parse !== undefined) return Number(definition.default) + 1;
  if (definition.flag.endsWith("<duration>")) return "2h";
  return `/tmp/elsewhere/${attributeName(definition.flag)}.duckdb`;
}

function commandNamed(program: Command, name: string): Command {
  const command = program.commands.find((candidate) => candidate.name() === name);
  if (command === undefined) throw new Error(`no command ${name}`);
  return command;
}

const program = buildProgram({ env: {}, stdout: () => {} }, () => {});

describe("EXPORT_FLAGS: one definition per export flag", () => {
  test("every config field but the secret ones has exactly one flag definition", () => {
    const fields = [...leaves(DEFAULT_CONFIG).keys()].filter((field) => !WITHOUT_FLAG.includes(field));
    expect(fields.length).toBeGreaterThan(15);
    expect([...EXPORT_FLAGS.map((definition) => definition.field)].sort()).toEqual([...fields].sort());
    const flags = EXPORT_FLAGS.map((definition) => longFlag(definition.flag));
    expect(new Set(flags).size).toBe(flags.length);
  });

  test.each(EXPORT_FLAGS.map((definition) => [definition.flag, definition] as const))(
    "%s reaches its field, and only it",
    (_, definition) => {
      const flags: ExportFlags = { [attributeName(definition.flag)]: otherValue(definition) };
      const config = loadExportConfig({ flags, env: {} });
      // The key file sits beside the database, so --db moves both.
      const expected = definition.field === "dbPath" ? ["dbPath", "keyFile"] : [definition.field];
      expect(changedFields(config, DEFAULT_CONFIG)).toEqual(expected);
    },
  );

  test.each(
    EXPORT_FLAGS.flatMap((definition) =>
      definition.variable === undefined ? [] : [[definition.variable, definition] as const],
    ),
  )("%s is read without its flag, which beats it", (variable, definition) => {
    // A variable is text: only a text flag may have one, or the variable would skip the flag's parser.
    expect(definition.parse).toBeUndefined();
    const key = attributeName(definition.flag);
    const env = { [variable]: "/tmp/from-variable.duckdb" };
    const fromVariable = loadExportConfig({ flags: {}, env });
    const fromFlag = loadExportConfig({ flags: { [key]: "/tmp/from-flag.duckdb" }, env });
    const field = (config: ExportConfig) => leaves(config).get(definition.field);
    expect(field(fromVariable)).toBe("/tmp/from-variable.duckdb");
    expect(field(fromFlag)).toBe("/tmp/from-flag.duckdb");
    expect(field(loadExportConfig({ flags: {}, env: {} }))).not.toBe("/tmp/from-variable.duckdb");
  });

  test("an invalid value is named by its flag, or by the variable it came from", () => {
    expect(() => loadExportConfig({ flags: { limit: 20_000, maxPrice: 0 }, env: {} })).toThrow(
      "Invalid export options: --limit: Too big: expected number to be <=10000; --max-price: Too small",
    );
    expect(() => loadExportConfig({ flags: {}, env: { ZOO_USAGE_DB: ":memory:" } })).toThrow(
      'ZOO_USAGE_DB ":memory:" is a DuckDB special name',
    );
  });
});

/** Commander's options of a command as what the help and the parser see. */
function optionsOf(command: Command) {
  return command.options.map((option) => ({
    flags: option.flags,
    description: option.description,
    choices: option.argChoices,
    attribute: option.attributeName(),
  }));
}

/** The options a table of flags should give, built here from the table alone. */
function expectedOptions(readsEnv: boolean) {
  return EXPORT_FLAGS.flatMap((definition) => {
    const shown = definition.variable !== undefined && readsEnv ? `$${definition.variable}, else ` : "";
    const option = {
      flags: definition.flag,
      description: takesValue(definition)
        ? `${definition.help} (default: ${shown}${definition.default})`
        : definition.help,
      choices: definition.choices === undefined ? undefined : [...definition.choices],
      attribute: attributeName(definition.flag),
    };
    if (definition.negation === undefined) return [option];
    const negation = longFlag(definition.flag).replace(/^--/, "--no-");
    return [
      option,
      { flags: negation, description: definition.negation, choices: undefined, attribute: option.attribute },
    ];
  });
}

describe("commander's options are the table's", () => {
  test("export: the table's flags, then its output flags and the API flags, nothing else", () => {
    const options = optionsOf(commandNamed(program, "export"));
    const api = optionsOf(addApiOptions(new Command("api")));
    const table = expectedOptions(true);
    expect(options.slice(0, table.length)).toEqual(table);
    expect(options.slice(table.length).map((option) => option.flags)).toEqual([
      ...OUTPUT_FLAGS,
      ...api.map((option) => option.flags),
    ]);
    expect(options.find((option) => option.flags.startsWith("--log-format"))?.description).toBe(
      logFormatOption().description,
    );
  });

  test("demo: the same flags, with no variable in their help (the demo reads none)", () => {
    const options = optionsOf(commandNamed(program, "demo"));
    expect(options.slice(0, expectedOptions(false).length)).toEqual(expectedOptions(false));
  });

  test("each flag's parser is the one its definition names", () => {
    const options = commandNamed(program, "export").options;
    for (const definition of EXPORT_FLAGS) {
      const option = options.find((candidate) => candidate.flags === definition.flag);
      if (definition.parse !== undefined)
        expect(option?.parseArg, definition.flag).toBe(PARSERS[definition.parse]);
      else if (definition.choices === undefined) expect(option?.parseArg, definition.flag).toBeUndefined();
    }
  });

  test("the flags parsed by commander load as the same config as the table's flags", () => {
    const args = EXPORT_FLAGS.flatMap((definition) => {
      const value = otherValue(definition);
      if (value === false) return [longFlag(definition.flag).replace(/^--/, "--no-")];
      return value === true ? [definition.flag] : [longFlag(definition.flag), String(value)];
    });
    const command = commandNamed(
      buildProgram({ env: {}, stdout: () => {} }, () => {}),
      "export",
    );
    command.action(() => {});
    command.parseOptions(args);
    const parsed = command.opts<ExportFlags>();
    const config = loadExportConfig({ flags: parsed, env: {} });
    expect(changedFields(config, DEFAULT_CONFIG).sort()).toEqual(
      [...EXPORT_FLAGS.map((definition) => definition.field), "keyFile"].sort(),
    );
  });
});
