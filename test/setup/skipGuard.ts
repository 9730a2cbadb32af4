import type { Reporter, TestModule, Vitest } from "vitest/node";

/**
 * No test skips silently: after the run, every skipped or todo test is listed with the reason its
 * test gave (`context.skip(reason)`), and under CI=true a skip fails the run, since a check that
 * did not run there is a check nobody ran. Tests left out by a name filter (`-t`) are not skips.
 */
export default class SkipGuard implements Reporter {
  private filtered = false;

  onInit(vitest: Vitest): void {
    this.filtered = Boolean(vitest.config.testNamePattern);
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    if (this.filtered) return;
    const skipped: string[] = [];
    for (const testModule of testModules) {
      for (const test of testModule.children.allTests()) {
        const result = test.result();
        if (result.state !== "skipped") continue;
        const reason = result.note ?? `no reason given (${test.options.mode})`;
        skipped.push(`  ${testModule.relativeModuleId} > ${test.fullName}: ${reason}`);
      }
    }
    if (skipped.length === 0) return;
    const ci = Boolean(process.env.CI);
    console.warn(
      `\n${skipped.length} test(s) skipped${ci ? ", which fails the run under CI" : ""}:\n${skipped.join("\n")}\n`,
    );
    if (ci) process.exitCode = 1;
  }
}
