import { randomBytes } from "node:crypto";
import path from "node:path";
import { createClient } from "../../src/api/createClient.js";
import { clientSettings, loadApiConfig } from "../../src/config/apiConfig.js";
import { loadExportConfig } from "../../src/config/exportConfig.js";
import { localDataset } from "../../src/destination/localDataset.js";
import { openWarehouse } from "../../src/load/database.js";
import { silentLogger } from "../../src/log/logger.js";
import { silentProgress } from "../../src/log/progress.js";
import { prepareRun } from "../../src/pipeline/prepareRun.js";
import { SecretBox } from "../../src/secrets/secretBox.js";
import type { RunContext } from "../../src/sources/runContext.js";

/**
 * A run's context as the export prepares it (a real warehouse in `dir`, a real client of `baseUrl`),
 * for running one source through the runner in a test; `close` ends it. Warnings are collected.
 */
export async function runContextFor(baseUrl: string, dir: string) {
  const api = loadApiConfig({ flags: { baseUrl, maxAttempts: 2 }, env: { ZOO_API_TOKEN: "t" } });
  const client = createClient(
    { ...clientSettings(api), retry: { ...api.retry, baseDelayMs: 1, maxDelayMs: 5 } },
    { logger: silentLogger },
  );
  const config = loadExportConfig({
    flags: { db: path.join(dir, "z.duckdb"), out: path.join(dir, "out") },
    env: {},
  });
  const warehouse = await openWarehouse(config.dbPath);
  const warnings: string[] = [];
  const { dbPath: _db, secretKey: _key, keyFile: _file, newSecretKey: _newKey, ...options } = config;
  const deps = {
    client,
    warehouse,
    secrets: new SecretBox(randomBytes(32)),
    logger: silentLogger,
    progress: silentProgress,
    now: () => new Date(),
    signal: new AbortController().signal,
    target: localDataset(options.outDir),
  };
  const runOptions = { ...options, runId: "source-test", spoolDir: path.join(dir, "spool") };
  const warn = (message: string) => warnings.push(message);
  const context: RunContext = await prepareRun(deps, runOptions, new Date(), warn);
  return {
    context,
    warnings,
    warehouse,
    close: async () => {
      warehouse.close();
      await client.close();
    },
  };
}
