import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    environment: "node",
    // One more worker than a 2-core machine's cores: a worker spends most of its time waiting on
    // the exports it spawns and on DuckDB's threads, so a third keeps both cores busy.
    maxWorkers: 3,
    // One module graph per worker, not one per file: each file would otherwise load src/, zod,
    // undici and DuckDB's addon again (about a third of the CPU of the quick tests). The tests keep
    // no state in shared modules and change no process-wide setting, so files cannot see each other.
    isolate: false,
    // Bounds for a hang, not for speed: a test that takes 10 s on an idle machine takes minutes
    // when the machine is busy, and must still pass.
    testTimeout: 300_000,
    hookTimeout: 300_000,
    // expect.poll waits for an event (a request counted, a socket closed); its 1 s default is a
    // timing assertion in disguise on a busy machine.
    expect: { poll: { timeout: 60_000 } },
    env: { TZ: "UTC" },
    // In CI, also a JSON report: .ci/run reads its counts for the summary line, and
    // scripts/slowest-tests.mjs its durations. Every skipped test is listed with its reason, and
    // under CI=true a skip fails the run (test/setup/skipGuard.ts).
    reporters: process.env.CI
      ? ["default", "json", "./test/setup/skipGuard.ts"]
      : ["default", "./test/setup/skipGuard.ts"],
    outputFile: { json: "test-artifacts/vitest-results.json" },
  },
});
