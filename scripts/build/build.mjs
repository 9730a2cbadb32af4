// `npm run build`: tsc and the warehouse template into dist.building/, then swapped into dist/ file
// by file (swap-in.mjs), so dist/ never disappears under a process running from it. With
// --if-changed (the `prepare` script: npm runs it on `npm ci`, `npm link`, `npm pack` and `npx` in
// a clone) it does nothing when dist/ was built from the sources as they are.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { sourcesDigest } from "./sources-digest.mjs";
import { swapIn } from "./swap-in.mjs";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const LIVE = path.join(ROOT, "dist");
// Beside dist/, at its depth: the built modules find sql/ and package.json at the same ../ paths.
const BUILDING = path.join(ROOT, "dist.building");
const STAMP = ".build-sources";

const digest = sourcesDigest(ROOT);
const builtFrom = path.join(LIVE, STAMP);
if (process.argv.includes("--if-changed") && existsSync(builtFrom)) {
  if (readFileSync(builtFrom, "utf8").trim() === digest) {
    // On stderr: `npm pack --json` runs this and keeps its stdout for its JSON.
    console.error("dist/ is built from the sources as they are: nothing to build");
    process.exit(0);
  }
}

rmSync(BUILDING, { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
execFileSync(process.execPath, [tsc, "-p", path.join(ROOT, "tsconfig.json"), "--outDir", BUILDING], {
  stdio: "inherit",
});
execFileSync(process.execPath, [path.join(ROOT, "scripts/warehouse-template.mjs"), BUILDING], {
  stdio: "inherit",
});
writeFileSync(path.join(BUILDING, STAMP), `${digest}\n`);
swapIn(BUILDING, LIVE);
