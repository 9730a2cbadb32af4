import { configDefaults, defineConfig } from "vitest/config";
import base from "./vitest.config.js";

/**
 * `npm run test:quick`: the unit and pure tests, which run no export and spawn no process (the CLI,
 * Chromium, a shell): the decisions as tables, transform and schema checks, the simulator's routes
 * and DuckDB's SQL in-process. Under 30 s on 2 cores; `npm test` runs them with all the others.
 * test/unit/quickTests.test.ts checks that no file here runs an export or spawns a process.
 */
export const QUICK_TESTS = [
  "test/unit/**/*.test.ts",
  "test/transform/**/*.test.ts",
  "test/api/**/*.test.ts",
  "test/config/**/*.test.ts",
  "test/extract/**/*.test.ts",
  "test/pipeline/**/*.test.ts",
  "test/log/**/*.test.ts",
  "test/sources/**/*.test.ts",
  "test/sim/**/*.test.ts",
  "test/load/**/*.test.ts",
  "test/focus/**/*.test.ts",
  "test/report/billingBlocks.test.ts",
  "test/report/cents.test.ts",
  "test/report/units.test.ts",
];

/** Files of those folders that export, spawn the CLI, take seconds of DuckDB work or need the build. */
export const NOT_QUICK = [
  "test/config/operationsFlags.test.ts",
  "test/load/bulkLoad.test.ts",
  "test/load/internalSchemaUpgrade.test.ts",
  "test/load/reconciliation.test.ts",
  "test/load/warehouseLock.test.ts",
  "test/load/warehouseTemplate.test.ts",
  "test/sim/ties.test.ts",
];

// Spread, not mergeConfig: that would append these lists to the base's include (every test).
export default defineConfig({
  ...base,
  test: { ...base.test, include: QUICK_TESTS, exclude: [...configDefaults.exclude, ...NOT_QUICK] },
});
