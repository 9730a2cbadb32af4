import type { Command } from "commander";
import { describe, expect, test } from "vitest";
import { nonNegativeInteger, nonNegativeNumber, positiveInteger } from "../../src/cli/parseNumber.js";
import { buildProgram } from "../../src/cli/program.js";
import { loadApiConfig } from "../../src/config/apiConfig.js";
import { API_FLAGS } from "../../src/config/apiFlags.js";
import { DEMO_EXPORT_DEFAULTS } from "../../src/config/commandDefaults.js";
import { type ExportFlags, loadExportConfig } from "../../src/config/exportConfig.js";
import { EXPORT_FLAGS } from "../../src/config/exportFlags.js";
import {
  attributeName,
  type FlagDefinition,
  type FlagValues,
  longFlag,
  takesValue,
} from "../../src/config/flagDefinition.js";
import { QUIET_CLI_IO } from "../helpers/cli.js";

/**
 * A flag is written in its table (EXPORT_FLAGS, API_FLAGS: help, default, variable, config field),
 * in the config schema, and in the code that uses the config: commander's options, the flags' type,
 * the flag an error names and the flags-to-config mapping all come from the table. These tests hold
 * each table to its config and to commander, so a flag written anywhere else fails here.
 */

interface Table {
  name: string;
  definitions: readonly FlagDefinition[];
  load: (flags: FlagValues, env: Record<string, string>) => unknown;
  /** Config fields no flag sets (secrets, and values that follow from others or have no flag). */
  withoutFlag: readonly string[];
  /** Fields a flag moves beside its own, by flag. */
  alsoMoves: Readonly<Record<string, readonly string[]>>;
}

const TABLES: readonly Table[] = [
  {
    name: "export",
    definitions: EXPORT_FLAGS,
    load: (flags, env) => loadExportConfig({ flags, env }),
    // The secret key and the S3 keys come only from their variables; the key file sits beside the
    // database.
    withoutFlag: [
      "secretKey",
      "keyFile",
      "s3.endpoint",
      "s3.region",
      "s3.credentials",
      "s3.requestChecksums",
    ],
    alsoMoves: { "--db <path>": ["keyFile"] },
  },
  {
    name: "api",
    definitions: API_FLAGS,
    load: (flags, env) => loadApiConfig({ flags, env }),
    // The token comes only from its variables; the retry's delays are the policy's own.
    withoutFlag: ["token", "tokenSource", "retry.baseDelayMs", "retry.maxDelayMs"],
    alsoMoves: {},
  },
];

const PARSERS = { positiveInteger, nonNegativeInteger, nonNegativeNumber };

/** Every leaf of a config as "path" -> value: "limit", "privacy.token"; a URL is a leaf. */
function leaves(value: unknown, prefix = ""): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const [key, inner] of Object.entries(value as Record<string, unknown>)) {
    const path = prefix + key;
    if (inner instanceof URL) out.set(path, inner.href);
    else if (inner !== null && typeof inner === "object") {
      for (const [innerPath, leaf] of leaves(inner, `${path}.`)) out.set(innerPath, leaf);
    } else out.set(path, inner);
  }
  return out;
}

/** The config paths whose values differ between two configs. */
function changedFields(config: unknown, base: unknown): string[] {
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
  if (definition.parse !== undefined) {
    // One below a default that may be its flag's largest value (--limit: 10000), else one above.
    const value = Number(definition.default);
    return value > 1 ? value - 1 : value + 1;
  }
  if (definition.flag.endsWith("<duration>")) return "2h";
  if (definition.flag.endsWith("<url>")) return "http://127.0.0.1:1/elsewhere";
  return `/tmp/elsewhere/${attributeName(definition.flag)}`;
}

/**
 * A value for a flag from its variable, as text, and one for the flag itself; `loaded` is what the
 * variable's text loads as (a switch's "yes" is true).
 */
function textValues(definition: FlagDefinition): {
  fromVariable: string;
  fromFlag: string | boolean;
  loaded: unknown;
} {
  if (!takesValue(definition)) return { fromVariable: "yes", fromFlag: false, loaded: true };
  const text = definition.flag.endsWith("<url>")
    ? { fromVariable: "http://127.0.0.1:2/variable", fromFlag: "http://127.0.0.1:3/flag" }
    : { fromVariable: "/tmp/from-variable", fromFlag: "/tmp/from-flag" };
  return { ...text, loaded: text.fromVariable };
}

describe.each(TABLES)("$name flags: one definition per flag", (table) => {
  const base = table.load({}, {});

  test("every config field but those without a flag has exactly one definition", () => {
    const fields = [...leaves(base).keys()].filter((field) => !table.withoutFlag.includes(field));
    expect(fields.length).toBeGreaterThan(4);
    expect(table.definitions.map((definition) => definition.field).sort()).toEqual(fields.sort());
    const flags = table.definitions.map((definition) => attributeName(definition.flag));
    expect(new Set(flags).size).toBe(flags.length);
  });

  test.each(table.definitions.map((definition) => [definition.flag, definition] as const))(
    "%s reaches its field, and only it",
    (flag, definition) => {
      const config = table.load({ [attributeName(flag)]: otherValue(definition) }, {});
      expect(changedFields(config, base)).toEqual([definition.field, ...(table.alsoMoves[flag] ?? [])]);
    },
  );

  const withVariable = table.definitions.filter(
    (definition) => definition.variable !== undefined && takesValue(definition),
  );
  test.each(withVariable.map((definition) => [definition.variable, definition] as const))(
    "%s is read without its flag, which beats it",
    (variable, definition) => {
      // A variable is text: only a text flag may have one, or the variable would skip the parser.
      expect(definition.parse).toBeUndefined();
      const { fromVariable, fromFlag, loaded } = textValues(definition);
      const field = (flags: FlagValues) =>
        leaves(table.load(flags, { [String(variable)]: fromVariable })).get(definition.field);
      expect(field({})).toBe(loaded);
      expect(field({ [attributeName(definition.flag)]: fromFlag })).toBe(fromFlag);
      expect(leaves(base).get(definition.field)).not.toBe(loaded);
    },
  );
});

test("a switch's variable (ZOO_USAGE_ADOPT_OUT) reads 1/true/yes/on and 0/false/no/off; the flag beats it", () => {
  const adopt = (flags: ExportFlags, variable?: string) =>
    loadExportConfig({ flags, env: variable === undefined ? {} : { ZOO_USAGE_ADOPT_OUT: variable } })
      .adoptOut;
  expect(adopt({})).toBe(false);
  for (const yes of ["1", "true", "YES", "on"]) expect(adopt({}, yes)).toBe(true);
  for (const no of ["0", "false", "no", "off"]) expect(adopt({}, no)).toBe(false);
  expect(adopt({ adoptOut: true }, "0")).toBe(true);
  expect(() => adopt({}, "maybe")).toThrow('ZOO_USAGE_ADOPT_OUT "maybe" is neither on nor off');
});

describe("an invalid value is named by its flag, or by the variable it came from", () => {
  test.each([
    [
      () => loadExportConfig({ flags: { limit: 20_000, maxPrice: 0 }, env: {} }),
      "Invalid export options: --limit: Too big: expected number to be <=10000; --max-price: Too small",
    ],
    [
      () => loadExportConfig({ flags: {}, env: { ZOO_USAGE_DB: ":memory:" } }),
      'ZOO_USAGE_DB ":memory:" is a DuckDB special name',
    ],
    [() => loadExportConfig({ flags: { lookback: "soon" }, env: {} }), '--lookback "soon" is not a duration'],
    [
      () => loadExportConfig({ flags: {}, env: { ZOO_USAGE_VERIFY_OUT: "maybe" } }),
      'ZOO_USAGE_VERIFY_OUT "maybe" is neither on nor off',
    ],
    [
      () => loadApiConfig({ flags: { requestTimeout: 0 }, env: {} }),
      "Invalid configuration: --request-timeout: Too small",
    ],
    [() => loadApiConfig({ flags: {}, env: { ZOO_HOST: "nope" } }), "The base URL from ZOO_HOST is not"],
  ])("%#", (load, message) => {
    expect(load).toThrow(message);
  });
});

/** Commander's options of a command as what the help and the parser see. */
function optionsOf(command: Command) {
  return command.options.map((option) => ({
    flags: option.flags,
    description: option.description,
    choices: option.argChoices,
    attribute: option.attributeName(),
    parser: option.argChoices === undefined ? option.parseArg : "choices",
  }));
}

/** The options a table's flags should give, built here from the definitions alone. */
function expectedOptions(
  definitions: readonly FlagDefinition[],
  readsEnv: boolean,
  ownDefaults: Readonly<Record<string, string>> = {},
) {
  return definitions.flatMap((definition) => {
    const variable = definition.variable !== undefined && readsEnv ? `$${definition.variable}, else ` : "";
    const value = ownDefaults[definition.field] ?? definition.default;
    const option = {
      flags: definition.flag,
      description: takesValue(definition)
        ? `${definition.help} (default: ${variable}${value})`
        : definition.help,
      choices: definition.choices === undefined ? undefined : [...definition.choices],
      attribute: attributeName(definition.flag),
      parser:
        definition.choices !== undefined
          ? "choices"
          : definition.parse === undefined
            ? undefined
            : PARSERS[definition.parse],
    };
    if (definition.negation === undefined) return [option];
    const negation = longFlag(definition.flag).replace(/^--/, "--no-");
    return [
      option,
      { ...option, flags: negation, description: definition.negation, choices: undefined, parser: undefined },
    ];
  });
}

/** The API table's options, and their flags as a command lists them: `--print-config` before `--debug`. */
function apiOptions() {
  const options = expectedOptions(API_FLAGS, true);
  const flags = options.map((option) => option.flags);
  return { options, listed: [...flags.filter((flag) => flag !== "--debug"), "--print-config", "--debug"] };
}

function commandNamed(program: Command, path: readonly string[]): Command {
  let command = program;
  for (const name of path) {
    const found = command.commands.find((candidate) => candidate.name() === name);
    if (found === undefined) throw new Error(`no command ${path.join(" ")}`);
    command = found;
  }
  return command;
}

const program = buildProgram(QUIET_CLI_IO, () => {});

describe("commander's options are the tables'", () => {
  test("export: EXPORT_FLAGS, its output flags, then API_FLAGS with --print-config", () => {
    const options = optionsOf(commandNamed(program, ["export"]));
    const table = expectedOptions(EXPORT_FLAGS, true);
    expect(options.slice(0, table.length)).toEqual(table);
    const rest = options.slice(table.length);
    expect(rest.slice(0, 3).map((option) => option.flags)).toEqual([
      "--json",
      "--log-format <format>",
      "--no-summary",
    ]);
    const api = apiOptions();
    expect(rest.slice(3).map((option) => option.flags)).toEqual(api.listed);
    expect(rest.slice(3).filter((option) => option.flags !== "--print-config")).toEqual(api.options);
  });

  test("demo: EXPORT_FLAGS with no variable in their help (the demo reads none), and its own folder", () => {
    const options = optionsOf(commandNamed(program, ["demo"]));
    const table = expectedOptions(EXPORT_FLAGS, false, DEMO_EXPORT_DEFAULTS);
    expect(DEMO_EXPORT_DEFAULTS.dbPath).toMatch(/^\.\/zoo-usage-demo\//);
    expect(options.slice(0, table.length)).toEqual(table);
  });

  test("operation get: its own flags, then API_FLAGS", () => {
    const options = optionsOf(commandNamed(program, ["operation", "get"]));
    const api = apiOptions().options;
    const apiPart = options.filter((option) => api.some((expected) => expected.flags === option.flags));
    expect(apiPart).toEqual(api);
  });

  test("flags parsed by commander load as the configs the tables say", () => {
    const args = [...EXPORT_FLAGS, ...API_FLAGS].flatMap((definition: FlagDefinition) => {
      const value = otherValue(definition);
      if (value === false) return [longFlag(definition.flag).replace(/^--/, "--no-")];
      return value === true ? [definition.flag] : [longFlag(definition.flag), String(value)];
    });
    const command = commandNamed(
      buildProgram(QUIET_CLI_IO, () => {}),
      ["export"],
    );
    command.parseOptions(args);
    const flags = command.opts();
    expect(
      changedFields(loadExportConfig({ flags, env: {} }), loadExportConfig({ flags: {}, env: {} })).sort(),
    ).toEqual([...EXPORT_FLAGS.map((definition) => definition.field), "keyFile"].sort());
    expect(
      changedFields(loadApiConfig({ flags, env: {} }), loadApiConfig({ flags: {}, env: {} })).sort(),
    ).toEqual(API_FLAGS.map((definition) => definition.field).sort());
  });
});
