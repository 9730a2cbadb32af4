import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { type DuckDBConnection, DuckDBInstance, quotedString } from "@duckdb/node-api";
import { createClient } from "../../src/api/createClient.js";
import { runExport } from "../../src/commands/export.js";
import { clientSettings, loadApiConfig } from "../../src/config/apiConfig.js";
import { type ExportFlags, loadExportConfig } from "../../src/config/exportConfig.js";
import { openWarehouse, type Warehouse } from "../../src/load/database.js";
import { type Logger, silentLogger } from "../../src/log/logger.js";
import { silentProgress } from "../../src/log/progress.js";
import type { RunSummary } from "../../src/sources/runSummary.js";

/** A temp dir per test with the default layout: db, key file and Parquet dataset inside it. */
export async function tempWorkspace(): Promise<{
  dir: string;
  db: string;
  out: string;
  cleanup: () => Promise<void>;
}> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "zoo-usage-test-"));
  return {
    dir,
    db: path.join(dir, "zoo_usage.duckdb"),
    out: path.join(dir, "parquet"),
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
}

/** A new warehouse in a temp dir for one test: `use` gets both, and both are gone afterwards. */
export async function withTempWarehouse(
  use: (warehouse: Warehouse, dir: string) => Promise<void>,
): Promise<void> {
  const { dir, cleanup } = await tempWorkspace();
  const warehouse = await openWarehouse(path.join(dir, "db.duckdb"));
  try {
    await use(warehouse, dir);
  } finally {
    warehouse.close();
    await cleanup();
  }
}

let runCounter = 0;

/** One in-process export run, as the CLI would do it, with fast retries. */
export async function exportOnce(options: {
  baseUrl: string;
  token: string;
  flags: ExportFlags;
  logger?: Logger;
  signal?: AbortSignal;
  maxAttempts?: number;
  /** --max-response-mb (default: the CLI's). */
  maxResponseMb?: number;
  /** The run's clock (default: the real one), e.g. the simulator's, for windows measured from it. */
  now?: () => Date;
}): Promise<{ summary: RunSummary; exitCode: number }> {
  const config = loadApiConfig({
    flags: {
      baseUrl: options.baseUrl,
      maxAttempts: options.maxAttempts ?? 4,
      ...(options.maxResponseMb === undefined ? {} : { maxResponseMb: options.maxResponseMb }),
    },
    env: { ZOO_API_TOKEN: options.token },
  });
  const client = createClient(
    { ...clientSettings(config), retry: { ...config.retry, baseDelayMs: 1, maxDelayMs: 20 } },
    {
      logger: options.logger ?? silentLogger,
    },
  );
  try {
    runCounter += 1;
    // Test data sits at fixed dates that the real clock leaves behind, so the default operations
    // window would empty out as the calendar moves: a run here fetches every operation unless the
    // test chooses otherwise.
    const flags: ExportFlags =
      options.flags.operations === undefined && options.flags.operationsWindow === undefined
        ? { ...options.flags, operations: "all" }
        : options.flags;
    return await runExport(client, loadExportConfig({ flags, env: {} }), {
      logger: options.logger ?? silentLogger,
      progress: silentProgress,
      now: options.now ?? (() => new Date()),
      signal: options.signal ?? new AbortController().signal,
      runId: `test-run-${String(runCounter).padStart(4, "0")}-${process.pid}`,
    });
  } finally {
    await client.close();
  }
}

/**
 * One in-memory DuckDB per test worker for queryDb, which attaches each file in turn: a DuckDB of
 * its own per look costs three times the CPU (its catalog of built-ins is made each time), and
 * tests look into files several hundred times a run. One look at a time (`looking`), since a look
 * switches the connection's default database.
 */
let lookout: Promise<DuckDBConnection> | undefined;
let looking: Promise<unknown> = Promise.resolve();

async function lookoutConnection(): Promise<DuckDBConnection> {
  lookout ??= (async () => {
    const instance = await DuckDBInstance.create(":memory:", { threads: "1" });
    const connection = await instance.connect();
    await connection.run("SET TimeZone = 'UTC'");
    return connection;
  })();
  return lookout;
}

/** Reads query results from a database file, attached read-only and detached again. */
export function queryDb(db: string, sql: string): Promise<Record<string, unknown>[]> {
  const look = looking.then(async () => {
    const connection = await lookoutConnection();
    await connection.run(`ATTACH ${quotedString(db)} AS looked_at (READ_ONLY)`);
    try {
      await connection.run("USE looked_at");
      const reader = await connection.runAndReadAll(sql);
      return reader.getRowObjectsJS() as Record<string, unknown>[];
    } finally {
      await connection.run("USE memory");
      await connection.run("DETACH looked_at");
    }
  });
  looking = look.catch(() => undefined);
  return look;
}

/** Runs SQL on a database file opened for writing, as an older version or another tool would. */
export async function writeDb(db: string, sql: string): Promise<void> {
  const instance = await DuckDBInstance.create(db);
  const connection = await instance.connect();
  try {
    await connection.run(sql);
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}
