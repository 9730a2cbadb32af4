// The digest of what a build is made from: src/ and sql/ (tsc's input and the warehouse template's
// schema), the build's own scripts, tsconfig.json and the lockfile (the compiler's and DuckDB's
// versions). `prepare` compares it with the one dist/ was built from, so `npm ci`, `npm link`,
// `npm pack` and `npx` in a clone rebuild only what changed, and never under a running CLI.
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

const INPUTS = [
  "src",
  "sql",
  "scripts/build",
  "scripts/warehouse-template.mjs",
  "tsconfig.json",
  "package-lock.json",
];

/** sha256 over each input file's path and content, in a fixed order. */
export function sourcesDigest(root) {
  const hash = createHash("sha256");
  for (const file of INPUTS.flatMap((input) => filesOf(root, input)).sort()) {
    hash.update(`${file}\0`);
    hash.update(readFileSync(path.join(root, file)));
    hash.update("\0");
  }
  return hash.digest("hex");
}

function filesOf(root, input) {
  const full = path.join(root, input);
  if (!existsSync(full)) return [];
  if (!statSync(full).isDirectory()) return [input];
  return readdirSync(full, { recursive: true, encoding: "utf8" })
    .map((file) => path.join(input, file))
    .filter((file) => statSync(path.join(root, file)).isFile())
    .map((file) => file.split(path.sep).join("/"));
}
