import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { type BrowserContext, chromium } from "playwright-core";

/** Debian's package `chromium` (.ci/run installs it); playwright-core never downloads a browser. */
export const CHROMIUM = "/usr/bin/chromium";

/**
 * Flags for this closed network: no sandbox (root in a container), no GPU, and none of the
 * background fetches (component updates, sync, QUIC probes) a fresh profile would start.
 */
const FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export function chromiumInstalled(): boolean {
  return existsSync(CHROMIUM);
}

/** A headless Chromium with a fresh profile (--user-data-dir), removed again by close(). */
export async function launchChromium(viewport: { width: number; height: number }): Promise<{
  context: BrowserContext;
  close: () => Promise<void>;
}> {
  const profile = await mkdtemp(path.join(os.tmpdir(), "zoo-usage-chromium-"));
  // launchPersistentContext is how playwright passes --user-data-dir (it refuses it in args).
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: FLAGS,
    viewport,
  });
  return {
    context,
    close: async () => {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}
