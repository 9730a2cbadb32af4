// Moves a freshly built tree into the live one without the live one ever disappearing: new folders
// are made first, each file is renamed over its old copy (one atomic rename each), and only then is
// what the new build no longer has removed. A process running from the live tree (a CLI loading
// its commands lazily, a test run spawning it) finds every file it asks for, old or new, throughout.
import { mkdirSync, readdirSync, renameSync, rmSync } from "node:fs";
import path from "node:path";

/** Swaps `built` into `live` (made if missing); `built` is consumed. */
export function swapIn(built, live) {
  const entries = readdirSync(built, { recursive: true, withFileTypes: true }).map((entry) => ({
    relative: path.relative(built, path.join(entry.parentPath, entry.name)),
    folder: entry.isDirectory(),
  }));
  mkdirSync(live, { recursive: true });
  for (const { relative } of entries.filter((entry) => entry.folder)) {
    mkdirSync(path.join(live, relative), { recursive: true });
  }
  for (const { relative } of entries.filter((entry) => !entry.folder)) {
    renameSync(path.join(built, relative), path.join(live, relative));
  }
  removeStale(live, new Set(entries.map((entry) => entry.relative)), live);
  rmSync(built, { recursive: true, force: true });
}

/** Removes from `live` every file and folder the new build does not hold. */
function removeStale(folder, kept, live) {
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const target = path.join(folder, entry.name);
    if (!kept.has(path.relative(live, target))) rmSync(target, { recursive: true, force: true });
    else if (entry.isDirectory()) removeStale(target, kept, live);
  }
}
