import { appendFileSync } from "node:fs";
import { register } from "node:module";
import { isMainThread } from "node:worker_threads";

/**
 * `node --import ./recordModules.mjs`: appends the URL of every module the process resolves, one a
 * line, to the file $RECORD_MODULES_TO. Imported with --import it registers itself as a resolve
 * hook; the hooks run on their own thread, where the same file supplies `resolve`.
 */
if (isMainThread) register(import.meta.url);

export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  appendFileSync(process.env.RECORD_MODULES_TO ?? "", `${result.url}\n`);
  return result;
}
