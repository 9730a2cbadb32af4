import type { z } from "zod";
import { ZooUsageError } from "../errors.js";

/**
 * A config error whose message names what the user wrote behind each bad field (`--limit`,
 * `ZOO_USAGE_OUT`), never the config's internal field name. `names` maps a field's path
 * (`privacy.token`) to that flag or variable.
 */
export function invalidOptions(
  what: string,
  error: z.ZodError,
  names: Readonly<Record<string, string>>,
  hint: string,
): ZooUsageError {
  const problems = error.issues.map((issue) => {
    const field = issue.path.map(String).join(".");
    return `${names[field] ?? field}: ${issue.message}`;
  });
  return new ZooUsageError({
    code: "config.invalid",
    message: `Invalid ${what}: ${problems.join("; ")}`,
    hint,
  });
}
