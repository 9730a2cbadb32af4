import path from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root and the built CLI the benchmark runs, as users do (`npm run build` first). */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
export const CLI = path.join(ROOT, "dist", "bin", "zoo-usage.js");
