import { describe, expect, test } from "vitest";
import { loadExportConfig } from "../../src/config/exportConfig.js";
import { ZooUsageError } from "../../src/errors.js";
import { runCli } from "../helpers/cli.js";

const DAY_MS = 86_400_000;

describe("loadExportConfig: which operations to fetch", () => {
  test("by default, a 35-day window; --operations-window sets it; --operations all removes it", () => {
    expect(loadExportConfig({ flags: {}, env: {} })).toMatchObject({
      operations: true,
      operationsWindowMs: 35 * DAY_MS,
    });
    expect(
      loadExportConfig({ flags: { operations: "window", operationsWindow: "36h" }, env: {} }),
    ).toMatchObject({ operations: true, operationsWindowMs: 36 * 3_600_000 });
    expect(loadExportConfig({ flags: { operations: "all" }, env: {} })).toMatchObject({
      operations: true,
      operationsWindowMs: null,
    });
    expect(loadExportConfig({ flags: { operations: false }, env: {} })).toMatchObject({
      operations: false,
    });
  });

  test.each([
    [{ operations: "foo" }, /--operations "foo" is not a mode/],
    [{ operationsWindow: "2w" }, /--operations-window "2w" is not a duration/],
    [{ operationsWindow: "0" }, /--operations-window "0" is empty/],
    [{ operations: "all", operationsWindow: "3d" }, /contradict/],
  ])("%j is refused with a message naming the flag", (flags, message) => {
    let caught: unknown;
    try {
      loadExportConfig({ flags, env: {} });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ZooUsageError);
    expect((caught as ZooUsageError).code).toBe("config.invalid");
    expect((caught as ZooUsageError).message).toMatch(message);
  });
});

describe("the CLI's operations flags", () => {
  const env = { ZOO_API_TOKEN: "not-a-real-token" };
  const printed = async (...flags: string[]) => {
    const result = await runCli(["export", "--print-config", ...flags], { env });
    expect(result.code, result.stderr).toBe(0);
    return (JSON.parse(result.stdout) as { export: Record<string, unknown> }).export;
  };

  test("no flag, --operations all, --no-operations and --operations-window reach the config", async () => {
    expect(await printed()).toMatchObject({ operations: true, operations_window_ms: 35 * DAY_MS });
    expect(await printed("--operations", "all")).toMatchObject({
      operations: true,
      operations_window_ms: null,
    });
    expect(await printed("--no-operations")).toMatchObject({ operations: false });
    expect(await printed("--operations-window", "10d")).toMatchObject({
      operations: true,
      operations_window_ms: 10 * DAY_MS,
    });
  });

  test.each([
    [["--operations", "foo"], /--operations <mode>.*'foo' is invalid\. Allowed choices are window, all/],
    [["--operations", "all", "--operations-window", "3d"], /contradict/],
    [["--operations-window", "soon"], /--operations-window "soon" is not a duration/],
  ])("%j exits 2 with a clear message", async (flags, message) => {
    const result = await runCli(["export", "--print-config", ...flags], { env });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stdout).toBe("");
  });

  test("--help says the window is measured from the run's clock", async () => {
    const result = await runCli(["export", "--help"], { env });
    expect(result.code).toBe(0);
    expect(result.stdout.replace(/\s+/g, " ")).toMatch(/--operations-window <duration>.*run's clock/);
  });
});
