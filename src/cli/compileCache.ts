import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import Module, { createRequire } from "node:module";
import path from "node:path";
import vm from "node:vm";
import { crc32 } from "node:zlib";

/** What Node's CommonJS loader calls to compile and run a module's source (not in its types). */
interface CompilingModule {
  exports: unknown;
  _compile(content: string, filename: string): unknown;
}

/**
 * Runs the bundle's CommonJS chunks in `binDir` with the code V8 compiled for them in an earlier
 * run, kept in `cacheDir`. A short run (a nightly export with little new, a report) otherwise spends
 * a sixth of its CPU compiling the same ~2.5 MB of JavaScript again; Node 20 has no compile cache of
 * its own (module.enableCompileCache came in Node 22). The first run of a chunk writes what V8
 * compiled once the process is done, so the cache holds the functions a real run used, not only the
 * top level. A cache file is named by the chunk and a CRC of its source, because V8 checks only the
 * source's length: a rebuilt chunk of the same length must not run the old one's code. A cache V8
 * refuses (another Node version) is written again; a cache that cannot be read or written only
 * costs the compile, so a read-only install runs as if there were none.
 */
export function installCompileCache(binDir: string, cacheDir: string): void {
  const compiled: Array<{ script: vm.Script; file: string }> = [];
  const prototype = Module.prototype as unknown as CompilingModule;
  const compile = prototype._compile;
  prototype._compile = function (this: CompilingModule, content: string, filename: string) {
    if (path.dirname(filename) !== binDir || !filename.endsWith(".cjs")) {
      return compile.call(this, content, filename);
    }
    const file = path.join(cacheDir, `${path.basename(filename)}.${crc32(content).toString(16)}.v8`);
    const cachedData = readIfPresent(file);
    // No dynamic import() in these chunks (scripts/bundle.mjs refuses one): a script compiled here
    // has no loader for it.
    const script = new vm.Script(wrap(content), {
      filename,
      ...(cachedData === undefined ? {} : { cachedData }),
    });
    if (cachedData === undefined || script.cachedDataRejected === true) compiled.push({ script, file });
    const run = script.runInThisContext({ displayErrors: true }) as (...args: unknown[]) => unknown;
    return run.call(
      this.exports,
      this.exports,
      createRequire(filename),
      this,
      filename,
      path.dirname(filename),
    );
  };
  process.on("exit", () => {
    for (const { script, file } of compiled) writeAtomically(file, script.createCachedData());
  });

  function writeAtomically(file: string, data: Buffer): void {
    const temporary = `${file}.${process.pid}.tmp`;
    try {
      mkdirSync(cacheDir, { recursive: true });
      writeFileSync(temporary, data);
      renameSync(temporary, file);
    } catch {
      // A read-only install, a full disk: the next run compiles again, nothing else changes.
    }
  }
}

/** The module wrapper Node's loader puts around a CommonJS source, its hashbang line dropped. */
function wrap(content: string): string {
  const wrapper = (Module as unknown as { wrap(source: string): string }).wrap;
  return wrapper(content.startsWith("#!") ? `//${content.slice(2)}` : content);
}

function readIfPresent(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}
