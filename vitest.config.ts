import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    environment: "node",
    // Two cores: more workers than that only adds contention to the simulator-backed tests.
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    env: { TZ: "UTC" },
    // In CI, also a JSON report: .ci/run reads its counts for the summary line.
    reporters: process.env.CI ? ["default", "json"] : ["default"],
    outputFile: { json: "test-artifacts/vitest-results.json" },
  },
});
