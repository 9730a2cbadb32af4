import { expect, test } from "vitest";
import { loadExportConfig } from "../../src/config/exportConfig.js";
import { ZooUsageError } from "../../src/errors.js";

/**
 * --store-timeout and ZOO_USAGE_STORE_TIMEOUT: an s3:// --out's time limit per attempt. The flag's
 * way to its field is flagTables.test.ts's; the variable is read by the loader itself.
 */
test("the store's time limit: 60 s by default, the variable, the flag beating it", () => {
  expect(loadExportConfig({ flags: {}, env: {} }).s3.timeoutMs).toBe(60_000);
  expect(loadExportConfig({ flags: {}, env: { ZOO_USAGE_STORE_TIMEOUT: "2.5" } }).s3.timeoutMs).toBe(2_500);
  expect(
    loadExportConfig({ flags: { storeTimeout: 7 }, env: { ZOO_USAGE_STORE_TIMEOUT: "2.5" } }).s3.timeoutMs,
  ).toBe(7_000);
});

test.each(["soon", "0", "-1"])("ZOO_USAGE_STORE_TIMEOUT=%s is refused naming the variable", (value) => {
  let error: unknown;
  try {
    loadExportConfig({ flags: {}, env: { ZOO_USAGE_STORE_TIMEOUT: value } });
  } catch (thrown) {
    error = thrown;
  }
  expect(error).toBeInstanceOf(ZooUsageError);
  expect((error as ZooUsageError).code).toBe("config.invalid");
  expect((error as ZooUsageError).message).toContain("ZOO_USAGE_STORE_TIMEOUT");
});
