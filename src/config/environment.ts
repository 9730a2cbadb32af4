/** The process environment as the CLI hands it over; nothing below the CLI reads process.env. */
export type Env = Readonly<Record<string, string | undefined>>;

/**
 * The one rule for every variable zoo-usage reads: a variable that is empty or only blanks counts
 * as unset. `ZOO_USAGE_DB=` in a crontab or a CI secret that expanded to nothing then falls back to
 * the default, the same for every command, instead of being taken as a path or a URL.
 */
export function envValue(env: Env, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value.trim() === "" ? undefined : value;
}

/** A setting's value and what it came from: the flag or variable the user wrote, or "default". */
export interface Setting<T> {
  value: T;
  from: string;
}

/** Precedence flag > variable > default, remembering which one gave the value, for error messages. */
export function flagOrEnv(
  flag: { name: string; value: string | undefined },
  variable: string,
  env: Env,
  fallback: string,
): Setting<string> {
  if (flag.value !== undefined) return { value: flag.value, from: flag.name };
  const fromEnv = envValue(env, variable);
  if (fromEnv !== undefined) return { value: fromEnv, from: variable };
  return { value: fallback, from: "default" };
}
