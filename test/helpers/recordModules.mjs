import { appendFileSync } from "node:fs";
import Module, { register } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { isMainThread } from "node:worker_threads";

/**
 * `node --import ./recordModules.mjs`: appends the URL of every module the process resolves, one a
 * line, to the file $RECORD_MODULES_TO. Imported with --import it registers itself as a resolve
 * hook for ES modules (the hooks run on their own thread, where the same file supplies `resolve`),
 * and wraps CommonJS resolution for what `require` loads (DuckDB loads its native addon with require).
 */
const record = (url) => appendFileSync(process.env.RECORD_MODULES_TO ?? "", `${url}\n`);

if (isMainThread) {
  register(import.meta.url);
  const resolveFilename = Module._resolveFilename;
  Module._resolveFilename = function (...args) {
    const file = resolveFilename.apply(this, args);
    if (path.isAbsolute(file)) record(pathToFileURL(file).href);
    return file;
  };
}

export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  record(result.url);
  return result;
}
