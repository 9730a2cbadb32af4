import { ZooUsageError } from "../errors.js";

/**
 * The status of an answer that means "this token may not see it" (403: not allowed, such as a
 * member who is not the org's admin; 404: nothing there for this token, such as no org or no
 * payment account), or undefined for any other failure. The account steps skip on these with a
 * warning instead of failing the run.
 */
export function notVisibleStatus(error: unknown): 403 | 404 | undefined {
  if (!(error instanceof ZooUsageError)) return undefined;
  if (error.code === "api.forbidden") return 403;
  if (error.code === "api.not_found") return 404;
  return undefined;
}
