import path from "node:path";
import { describe, expect, test } from "vitest";
import {
  demoCommandConfig,
  exportCommandConfig,
  operationGetCommandConfig,
  reportCommandConfig,
} from "../../src/config/commandConfig.js";
import type { Env } from "../../src/config/environment.js";
import { ZooUsageError } from "../../src/errors.js";

/**
 * The environment rule as a decision table: for every command and every variable it could read,
 * the variable unset, empty, blank or set. An empty or blank variable counts as unset, for every
 * command; the demo reads none.
 */
const DEFAULT_DB = path.resolve("zoo-usage/zoo_usage.duckdb");
const DEFAULT_OUT = path.resolve("zoo-usage/parquet");
/** The demo's own folder, apart from a real export's. */
const DEMO_DB = path.resolve("zoo-usage-demo/zoo_usage.duckdb");
const DEMO_OUT = path.resolve("zoo-usage-demo/parquet");
const KEY = "ab".repeat(32);

type Read = (env: Env) => unknown;
const exportWith: (pick: (config: ReturnType<typeof exportCommandConfig>) => unknown) => Read =
  (pick) => (env) =>
    pick(exportCommandConfig({ flags: {}, env }));
const demoWith: (pick: (config: ReturnType<typeof demoCommandConfig>) => unknown) => Read = (pick) => (env) =>
  pick(demoCommandConfig({ flags: {}, env }));
const operationGet: Read = (env) => {
  const config = operationGetCommandConfig({ id: "x", flags: { timeout: 600 }, env });
  return "api" in config ? config.api : undefined;
};
const operationFromDb: Read = (env) => {
  const config = operationGetCommandConfig({ id: "x", flags: { timeout: 600, fromDb: true }, env });
  return "warehouse" in config ? config.warehouse.dbPath : undefined;
};

/** [command, variable, what the command makes of it, the value set, what that gives, the default] */
const TABLE: [string, string, Read, string, unknown, unknown][] = [
  [
    "export",
    "ZOO_HOST",
    exportWith((c) => c.api.baseUrl.href),
    "https://proxy.example/zoo/",
    "https://proxy.example/zoo/",
    "https://api.zoo.dev/",
  ],
  ["export", "ZOO_API_TOKEN", exportWith((c) => c.api.token), "tok-123", "tok-123", undefined],
  ["export", "KITTYCAD_API_TOKEN", exportWith((c) => c.api.token), "tok-456", "tok-456", undefined],
  ["export", "KITTYCAD_TOKEN", exportWith((c) => c.api.token), "tok-789", "tok-789", undefined],
  [
    "export",
    "ZOO_USAGE_DB",
    exportWith((c) => c.export.dbPath),
    "/data/usage.duckdb",
    "/data/usage.duckdb",
    DEFAULT_DB,
  ],
  [
    "export",
    "ZOO_USAGE_DB",
    exportWith((c) => c.export.keyFile),
    "/data/usage.duckdb",
    "/data/usage.key",
    path.resolve("zoo-usage/zoo_usage.key"),
  ],
  [
    "export",
    "ZOO_USAGE_OUT",
    exportWith((c) => c.export.outDir),
    "/data/parquet",
    "/data/parquet",
    DEFAULT_OUT,
  ],
  ["export", "ZOO_USAGE_SECRET_KEY", exportWith((c) => c.export.secretKey), KEY, KEY, undefined],
  [
    "report",
    "ZOO_USAGE_DB",
    (env) => reportCommandConfig({ flags: {}, env }).report.dbPath,
    "/data/usage.duckdb",
    "/data/usage.duckdb",
    DEFAULT_DB,
  ],
  [
    "operation get",
    "ZOO_HOST",
    (env) => (operationGet(env) as { baseUrl: URL }).baseUrl.href,
    "http://127.0.0.1:8080/",
    "http://127.0.0.1:8080/",
    "https://api.zoo.dev/",
  ],
  [
    "operation get",
    "ZOO_API_TOKEN",
    (env) => (operationGet(env) as { token?: string }).token,
    "tok-123",
    "tok-123",
    undefined,
  ],
  [
    "operation get --from-db",
    "ZOO_USAGE_DB",
    operationFromDb,
    "/data/usage.duckdb",
    "/data/usage.duckdb",
    DEFAULT_DB,
  ],
  // The demo writes simulated data: never into the warehouse or with the key set for real exports.
  ["demo", "ZOO_USAGE_DB", demoWith((c) => c.export.dbPath), "/data/usage.duckdb", DEMO_DB, DEMO_DB],
  ["demo", "ZOO_USAGE_OUT", demoWith((c) => c.export.outDir), "/data/parquet", DEMO_OUT, DEMO_OUT],
  ["demo", "ZOO_USAGE_SECRET_KEY", demoWith((c) => c.export.secretKey), KEY, undefined, undefined],
];

const STATES: [string, (set: string) => string | undefined, boolean][] = [
  ["unset", () => undefined, false],
  ["empty", () => "", false],
  ["blank", () => "  \t", false],
  ["set", (set) => set, true],
];

describe.each(TABLE)("%s with %s", (_, variable, read, setValue, whenSet, byDefault) => {
  test.each(STATES)("%s", (_state, variableValue, isSet) => {
    const value = variableValue(setValue);
    const env: Env = value === undefined ? {} : { [variable]: value };
    expect(read(env)).toEqual(isSet ? whenSet : byDefault);
  });
});

describe("a flag beats its variable, for every command that has both", () => {
  const env = { ZOO_HOST: "https://env.example/", ZOO_USAGE_DB: "/env.duckdb", ZOO_USAGE_OUT: "/env-out" };
  test.each<[string, () => unknown, unknown]>([
    [
      "export --db",
      () => exportCommandConfig({ flags: { db: "/flag.duckdb" }, env }).export.dbPath,
      "/flag.duckdb",
    ],
    [
      "export --out",
      () => exportCommandConfig({ flags: { out: "/flag-out" }, env }).export.outDir,
      "/flag-out",
    ],
    [
      "export --base-url",
      () => exportCommandConfig({ flags: { baseUrl: "https://flag.example/" }, env }).api.baseUrl.href,
      "https://flag.example/",
    ],
    [
      "report --db",
      () => reportCommandConfig({ flags: { db: "/flag.duckdb" }, env }).report.dbPath,
      "/flag.duckdb",
    ],
    [
      "operation get --from-db --db",
      () =>
        operationGetCommandConfig({ id: "x", flags: { timeout: 1, fromDb: true, db: "/flag.duckdb" }, env }),
      { warehouse: { dbPath: "/flag.duckdb" }, operation: { id: "x", json: false } },
    ],
  ])("%s", (_, read, expected) => {
    expect(read()).toEqual(expected);
  });
});

/** A config field's name, not preceded by "-" (so --limit does not count as the field limit). */
const FIELD_NAME =
  /(?<![-\w])(dbPath|outDir|limit|lookbackMs|maxPriceUsd|batchRecords|operationsConcurrency|maxPendingRereads|requestTimeoutMs|maxResponseBytes|maxAttempts|maxTotalWaitMs|baseUrl|secretKey)(?!\w)/;

function errorOf(load: () => unknown): ZooUsageError {
  try {
    load();
  } catch (error) {
    if (error instanceof ZooUsageError) return error;
    throw error;
  }
  throw new Error("expected a configuration error");
}

describe("an error names the flag or variable the user wrote, never a config field", () => {
  test.each<[string, () => unknown, RegExp]>([
    [
      "export, ZOO_USAGE_DB",
      () => exportCommandConfig({ flags: {}, env: { ZOO_USAGE_DB: ":memory:" } }),
      /^ZOO_USAGE_DB ":memory:"/,
    ],
    ["export, --db", () => exportCommandConfig({ flags: { db: "" }, env: {} }), /^--db "" is empty/],
    [
      "report, ZOO_USAGE_DB",
      () => reportCommandConfig({ flags: {}, env: { ZOO_USAGE_DB: "md:usage" } }),
      /^ZOO_USAGE_DB "md:usage"/,
    ],
    [
      "operation get --from-db, ZOO_USAGE_DB",
      () =>
        operationGetCommandConfig({
          id: "x",
          flags: { timeout: 1, fromDb: true },
          env: { ZOO_USAGE_DB: "s3:x" },
        }),
      /^ZOO_USAGE_DB "s3:x"/,
    ],
    [
      "export, ZOO_HOST",
      () => exportCommandConfig({ flags: {}, env: { ZOO_HOST: "ftp://x" } }),
      /from ZOO_HOST/,
    ],
    [
      "operation get, ZOO_HOST",
      () => operationGetCommandConfig({ id: "x", flags: { timeout: 1 }, env: { ZOO_HOST: "not a url" } }),
      /from ZOO_HOST/,
    ],
    ["export, --out", () => exportCommandConfig({ flags: { out: "" }, env: {} }), /--out: /],
    ["export, --limit", () => exportCommandConfig({ flags: { limit: 20_000 }, env: {} }), /--limit: /],
    ["export, --max-price", () => exportCommandConfig({ flags: { maxPrice: 0 }, env: {} }), /--max-price: /],
    [
      "export, --operations-concurrency",
      () => exportCommandConfig({ flags: { operationsConcurrency: 65 }, env: {} }),
      /--operations-concurrency: /,
    ],
    [
      "export, --max-pending-rereads",
      () => exportCommandConfig({ flags: { maxPendingRereads: 2_000_000 }, env: {} }),
      /--max-pending-rereads: /,
    ],
    [
      "export, --request-timeout",
      () => exportCommandConfig({ flags: { requestTimeout: 0 }, env: {} }),
      /--request-timeout: /,
    ],
    [
      "operation get, --max-response-mb",
      () => operationGetCommandConfig({ id: "x", flags: { timeout: 1, maxResponseMb: 0 }, env: {} }),
      /--max-response-mb: /,
    ],
    ["report, --top", () => reportCommandConfig({ flags: { top: 0 }, env: {} }), /--top/],
  ])("%s", (_, load, message) => {
    const error = errorOf(load);
    expect(error.exitCode).toBe(2);
    expect(error.message).toMatch(message);
    expect(error.message).not.toMatch(FIELD_NAME);
  });
});
