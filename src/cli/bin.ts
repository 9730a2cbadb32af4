#!/usr/bin/env node
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { installCompileCache } from "./compileCache.js";

// The command users run (package.json "bin", built into dist/bin/zoo-usage.js): the CLI itself is
// the CommonJS chunks beside it (scripts/bundle.mjs), compiled with V8's cached code of earlier
// runs, kept in dist/.compile-cache.
const binDir = path.dirname(fileURLToPath(import.meta.url));
installCompileCache(binDir, path.join(binDir, "..", ".compile-cache"));
createRequire(import.meta.url)("./main.cjs");
