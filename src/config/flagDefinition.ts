import { type Env, envValue } from "./environment.js";

/** A flag's value once commander has read it. */
export type FlagValue = string | number | boolean;

/** The flags of a command as commander hands them over: each by its attribute name, all optional. */
export type FlagValues = Readonly<Record<string, FlagValue | undefined>>;

/** How the text after a flag is read (the CLI maps each to its commander parser); absent: as text. */
export type FlagParse = "positiveInteger" | "nonNegativeInteger" | "nonNegativeNumber";

/** A flag's value after precedence, with what an error about it names. */
export interface FlagSetting {
  value: FlagValue;
  /** The variable when the value came from one, else the flag (also for its default). */
  name: string;
}

/**
 * One command-line flag, written once: commander's option and its help, the default the loader
 * applies and the help shows, the variable read when the flag is not given, and the config field
 * it sets. Everything else about a flag (commander's options, the flags' type, the flag an error
 * names, the flags-to-config mapping) is derived from a table of these.
 */
export interface FlagDefinition<Field extends string = string> {
  /** As commander takes it: "--limit <n>", or "--full-refresh" for a switch. */
  readonly flag: string;
  readonly help: string;
  readonly parse?: FlagParse;
  readonly choices?: readonly string[];
  /** Applied when neither the flag nor its variable is given; a value flag's help ends in it. */
  readonly default: FlagValue;
  /** Read when the flag is not given (a flag beats its variable); a switch reads it in toConfig. */
  readonly variable?: string;
  /** The help of `--no-<name>`, which commander reads as this flag's key set to false. */
  readonly negation?: string;
  /** The config field the flag sets, as a path: "limit", "privacy.token". */
  readonly field: Field;
  /** The field's value from the flag's (the setting itself when absent); may read other flags. */
  readonly toConfig?: (setting: FlagSetting, flags: FlagValues) => unknown;
}

/** "--max-price <usd>" -> "--max-price". */
export function longFlag(flag: string): string {
  return flag.split(" ")[0] as string;
}

/** True for a flag that takes a value ("--limit <n>"), false for a switch ("--full-refresh"). */
export function takesValue(definition: FlagDefinition): boolean {
  return definition.flag.includes(" <");
}

/** The key commander stores a flag under: "--max-price <usd>" -> "maxPrice", as commander camel-cases. */
export function attributeName(flag: string): string {
  return longFlag(flag)
    .replace(/^--/, "")
    .replace(/-([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());
}

type LongName<F extends string> = F extends `--${infer N} ${string}`
  ? N
  : F extends `--${infer N}`
    ? N
    : never;
type CamelCase<S extends string> = S extends `${infer H}-${infer T}` ? `${H}${Capitalize<CamelCase<T>>}` : S;
type ValueOf<D extends FlagDefinition> = D["flag"] extends `${string} <${string}>`
  ? D extends { parse: FlagParse }
    ? number
    : string
  : boolean;
type WithNegation<D extends FlagDefinition> = D extends { negation: string }
  ? ValueOf<D> | boolean
  : ValueOf<D>;

/**
 * The flags type of a table, as commander hands them over: each flag under its attribute name, a
 * number when parsed as one, a boolean for a switch or a negated flag, else a string; all optional.
 */
export type FlagsOf<T extends readonly FlagDefinition[]> = {
  [D in T[number] as CamelCase<LongName<D["flag"]>>]?: WithNegation<D> | undefined;
};

/** Precedence flag > variable > default for one flag. */
export function flagSetting(definition: FlagDefinition, flags: FlagValues, env: Env): FlagSetting {
  const flag = longFlag(definition.flag);
  const given = flags[attributeName(definition.flag)];
  if (given !== undefined) return { value: given, name: flag };
  const variable = definition.variable;
  const fromEnv = variable === undefined ? undefined : envValue(env, variable);
  if (variable !== undefined && fromEnv !== undefined) return { value: fromEnv, name: variable };
  return { value: definition.default, name: flag };
}

/** Every path to a leaf of a config's fields: "limit", "privacy.token". */
export type FieldPath<C> = {
  [K in keyof C & string]: C[K] extends Record<string, unknown> ? `${K}.${FieldPath<C[K]>}` : K;
}[keyof C & string];

/**
 * The config a table of flags sets, before validation (`candidate`), and for each field the flag or
 * variable an error about it names (`names`, by the field's path). Flags are read in table order.
 */
export function configFromFlags<C>(
  definitions: readonly FlagDefinition<FieldPath<C>>[],
  flags: FlagValues,
  env: Env,
): { candidate: Record<string, unknown>; names: Record<string, string> } {
  const candidate: Record<string, unknown> = {};
  const names: Record<string, string> = {};
  for (const definition of definitions) {
    const setting = flagSetting(definition, flags, env);
    const value = definition.toConfig === undefined ? setting.value : definition.toConfig(setting, flags);
    setPath(candidate, definition.field.split("."), value);
    names[definition.field] = setting.name;
  }
  return { candidate, names };
}

function setPath(target: Record<string, unknown>, path: readonly string[], value: unknown): void {
  const [head, ...rest] = path as [string, ...string[]];
  if (rest.length === 0) {
    target[head] = value;
    return;
  }
  if (target[head] === undefined) target[head] = {};
  setPath(target[head] as Record<string, unknown>, rest, value);
}
