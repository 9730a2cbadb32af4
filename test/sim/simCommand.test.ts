import { describe, expect, test } from "vitest";
import { outputSeen, runCli } from "../helpers/cli.js";

/** `zoo-usage sim` on a free port, stopped with SIGTERM once it has printed its banner. */
async function simBanner(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return runCli(["sim", "--port", "0", "--calls", "300", "--users", "2", ...args], {
    timeoutMs: 60_000,
    onSpawn: (child) => {
      void outputSeen(child.stdout, /Try:/).then(() => child.kill("SIGTERM"));
    },
  });
}

function simulatedNow(stdout: string): number {
  const iso = /simulated now: ([^\s,]+)/.exec(stdout)?.[1];
  if (iso === undefined) throw new Error(`no simulated now in: ${stdout}`);
  return Date.parse(iso);
}

describe("zoo-usage sim", () => {
  test("its clock starts at the machine's now, as the export's does", async () => {
    const before = Date.now();
    const result = await simBanner(["--tie-share", "0.2", "--invoice-items", "per-call", "--subscription"]);
    const after = Date.now();
    expect(result.code, result.stderr).toBe(0);
    const now = simulatedNow(result.stdout);
    expect(now).toBeGreaterThanOrEqual(before - 1000);
    expect(now).toBeLessThanOrEqual(after);
  });

  test("--now sets it, and a bad billing flag is refused", async () => {
    const result = await simBanner(["--now", "2026-03-04T05:06:07Z", "--invoice-statuses"]);
    expect(result.code, result.stderr).toBe(0);
    expect(simulatedNow(result.stdout)).toBe(Date.parse("2026-03-04T05:06:07Z"));
    const refused = await simBanner(["--invoice-items", "per-week"]);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/per-month, per-call/);
  });
});
