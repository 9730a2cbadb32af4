import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { PutObjectCommand } from "@aws-sdk/client-s3";
import { DuckDBInstance } from "@duckdb/node-api";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type RunningSimulator, startSimulator } from "../../src/sim/index.js";
import { spawnCli, whileRunning } from "../helpers/cli.js";
import { queryDb, tempWorkspace, writeDb } from "../helpers/exportHarness.js";
import { microsOf, readDataset } from "../helpers/parquetDataset.js";
import { exportEnv, isPartitionPut, type S3Server, startS3Server } from "../helpers/s3Server.js";

/**
 * `--out s3://bucket/prefix` against a real S3-compatible server (s3rver on 127.0.0.1, behind a
 * proxy that counts, holds and refuses requests), run through the built CLI with the standard AWS
 * variables. What lands in the bucket is read back and compared with the warehouse by DuckDB and
 * by hyparquet, to the micro-dollar. Each export is a process of its own: the AWS SDK takes the
 * credentials (keys, AWS_PROFILE and the shared files) from the process's environment, not from
 * the environment the CLI is handed.
 */
const BUCKET = "zoo-data";
const DAY_MS = 86_400_000;

let sim: RunningSimulator;
let s3: S3Server;
beforeAll(async () => {
  sim = await startSimulator({ seed: 30, calls: 2500, days: 20, users: 1 });
  s3 = await startS3Server([BUCKET]);
});
afterAll(async () => {
  await s3.close();
  await sim.close();
});

const env = (extra: Record<string, string> = {}) => exportEnv(sim, s3, extra);

/**
 * Pages of 500: a nightly run starts at the stored page position before its lookback window, so
 * with pages smaller than the ~2,500-call history it reads the window, not the whole history.
 */
function exportArgs(db: string, prefix: string, ...more: string[]): string[] {
  return [
    "export",
    "--db",
    db,
    "--out",
    `s3://${BUCKET}/${prefix}`,
    "--partition",
    "day",
    "--limit",
    "500",
    "--json",
    ...more,
  ];
}

function summaryOf(stdout: string): Record<string, unknown> & { upload?: Record<string, number> } {
  return JSON.parse(stdout.trim().split("\n").at(-1) ?? "{}");
}

/**
 * The bucket's dataset equals the warehouse: the objects downloaded, read by DuckDB (hive
 * partitioning, as a BI reader would) and by hyparquet, count and sum to the micro-dollar what the
 * tables hold, one object per partition with rows.
 */
async function expectBucketEqualsWarehouse(db: string, prefix: string): Promise<string[]> {
  const mirror = await mkdtemp(path.join(os.tmpdir(), "zoo-usage-s3-mirror-"));
  try {
    const keys = await s3.download(BUCKET, `${prefix}/`, mirror);
    expect(keys).toContain("_zoo_usage_owner.json");
    expect(keys.filter((key) => key.startsWith("_zoo_usage_write_check"))).toEqual([]);
    const [table] = await queryDb(
      db,
      "SELECT count(*)::INTEGER AS n, sum(price_usd)::VARCHAR AS total, count(DISTINCT strftime(timezone('UTC', created_at), '%Y-%m-%d'))::INTEGER AS days FROM api_calls",
    );
    const instance = await DuckDBInstance.create(":memory:");
    const connection = await instance.connect();
    const read = await connection.runAndReadAll(
      `SELECT count(*)::INTEGER AS n, sum(price_usd)::VARCHAR AS total, count(DISTINCT created_day)::INTEGER AS days FROM read_parquet('${mirror}/api_calls/**/*.parquet', hive_partitioning = true)`,
    );
    connection.closeSync();
    instance.closeSync();
    expect(read.getRowObjectsJson()[0]).toEqual(table);
    const apiCallKeys = keys.filter((key) => key.startsWith("api_calls/"));
    expect(apiCallKeys.length).toBe(table?.days);
    // hyparquet: the same rows, the same micro-dollars, row by row.
    const { rows } = await readDataset(path.join(mirror, "api_calls"));
    const stored = new Map(
      (
        await queryDb(
          db,
          "SELECT id::VARCHAR AS id, (price_usd * 1000000)::BIGINT::VARCHAR AS micros FROM api_calls",
        )
      ).map((row) => [String(row.id), row.micros === null ? null : BigInt(String(row.micros))]),
    );
    expect(rows.length).toBe(stored.size);
    for (const row of rows) expect(microsOf(row.price_usd), String(row.id)).toBe(stored.get(String(row.id)));
    return keys;
  } finally {
    await rm(mirror, { recursive: true, force: true });
  }
}

describe("an s3:// --out", () => {
  const workspace = tempWorkspace();
  afterAll(async () => (await workspace).cleanup());

  test("a cold run uploads every partition whole, equal to the warehouse", async () => {
    const { db } = await workspace;
    s3.requests.length = 0;
    const result = await spawnCli(exportArgs(db, "cold"), { env: env(), timeoutMs: 120_000 });
    expect(result.code, result.stderr).toBe(0);
    const summary = summaryOf(result.stdout);
    const keys = await expectBucketEqualsWarehouse(db, "cold");
    const partitionKeys = keys.filter((key) => key.endsWith("/data.parquet"));
    expect(summary.upload?.objects).toBe(partitionKeys.length);
    expect(summary.upload?.bytes).toBeGreaterThan(0);
    expect(summary.upload?.deleted).toBe(0);
    expect(s3.requests.filter(isPartitionPut).length).toBe(partitionKeys.length);
    expect(await queryDb(db, "SELECT count(*)::INTEGER AS n FROM internal.parquet_dirty")).toEqual([
      { n: 0 },
    ]);
  });

  test("a run with nothing new uploads nothing", async () => {
    const { db } = await workspace;
    s3.requests.length = 0;
    const result = await spawnCli(exportArgs(db, "cold"), { env: env(), timeoutMs: 120_000 });
    expect(result.code, result.stderr).toBe(0);
    expect(summaryOf(result.stdout).upload).toEqual(
      expect.objectContaining({ objects: 0, bytes: 0, deleted: 0 }),
    );
    expect(s3.requests.filter(isPartitionPut)).toEqual([]);
  });

  test("a day later only the changed partitions are uploaded, and an emptied one is deleted", async () => {
    const { db } = await workspace;
    // A partition that has an object but no rows any more: marked dirty, as a change would mark it.
    await s3.client.send(
      new PutObjectCommand({
        Bucket: BUCKET,
        Key: "cold/api_calls/created_day=2001-01-01/data.parquet",
        Body: "x",
      }),
    );
    await writeDb(
      db,
      "INSERT INTO internal.parquet_dirty (dataset, partition) VALUES ('api_calls', '2001-01-01')",
    );
    sim.clock.advance(DAY_MS);
    s3.requests.length = 0;
    // No re-reads of old calls pending billing: the changes are the new day's and the lookback's.
    const result = await spawnCli(exportArgs(db, "cold", "--max-pending-rereads", "0"), {
      env: env(),
      timeoutMs: 120_000,
    });
    expect(result.code, result.stderr).toBe(0);
    const summary = summaryOf(result.stdout);
    const puts = s3.requests.filter(isPartitionPut);
    expect(puts.length).toBe(summary.upload?.objects);
    expect(summary.partitions_written).toBe(puts.length + 1);
    // The lookback window (3 days before the newest call) and the new day: never the 20-day history.
    const callPuts = puts.filter((put) => put.path.includes("/api_calls/"));
    expect(callPuts.length).toBeGreaterThan(0);
    expect(callPuts.length).toBeLessThanOrEqual(5);
    expect(summary.upload?.deleted).toBe(1);
    const keys = await expectBucketEqualsWarehouse(db, "cold");
    expect(keys).not.toContain("api_calls/created_day=2001-01-01/data.parquet");
  });

  test("--focus uploads the FOCUS dataset, one object a billing period, then nothing while its rows stay", async () => {
    const { dir } = await workspace;
    const db = path.join(dir, "focus.duckdb");
    const first = await spawnCli(exportArgs(db, "ledger", "--focus"), { env: env(), timeoutMs: 120_000 });
    expect(first.code, first.stderr).toBe(0);
    const periods = await queryDb(
      db,
      "SELECT DISTINCT strftime(BillingPeriodStart, '%Y-%m') AS period, count(*) OVER (PARTITION BY strftime(BillingPeriodStart, '%Y-%m'))::INTEGER AS n FROM focus_costs ORDER BY 1",
    );
    expect(summaryOf(first.stdout).focus).toEqual(
      expect.objectContaining({ written: periods.length, unchanged: 0, removed: 0 }),
    );
    const mirror = await mkdtemp(path.join(os.tmpdir(), "zoo-usage-s3-focus-"));
    try {
      const keys = await s3.download(BUCKET, "ledger/", mirror);
      expect(keys.filter((key) => key.startsWith("focus/")).sort()).toEqual(
        periods.map((row) => `focus/billing_period=${row.period}/data.parquet`),
      );
      // The objects hold the view's rows, to the micro unit.
      const [table] = await queryDb(
        db,
        "SELECT count(*)::INTEGER AS n, sum(BilledCost)::VARCHAR AS cost FROM focus_costs",
      );
      const instance = await DuckDBInstance.create(":memory:");
      const connection = await instance.connect();
      const read = await connection.runAndReadAll(
        `SELECT count(*)::INTEGER AS n, sum(BilledCost)::VARCHAR AS cost FROM read_parquet('${mirror}/focus/*/*.parquet', hive_partitioning = true)`,
      );
      connection.closeSync();
      instance.closeSync();
      expect(read.getRowObjectsJson()[0]).toEqual(table);
    } finally {
      await rm(mirror, { recursive: true, force: true });
    }
    s3.requests.length = 0;
    const again = await spawnCli(exportArgs(db, "ledger", "--focus"), { env: env(), timeoutMs: 120_000 });
    expect(again.code, again.stderr).toBe(0);
    expect(summaryOf(again.stdout).focus).toEqual(
      expect.objectContaining({ written: 0, unchanged: periods.length, removed: 0 }),
    );
    expect(
      s3.requests.filter((request) => request.method === "PUT" && request.path.includes("/focus/")),
    ).toEqual([]);
  });

  test("the prefix's owner marker refuses a second warehouse before anything is made", async () => {
    const { dir } = await workspace;
    const other = path.join(dir, "other.duckdb");
    const result = await spawnCli(exportArgs(other, "cold"), { env: env(), timeoutMs: 60_000 });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("output.other_warehouse");
    expect(result.stderr).toContain(`s3://${BUCKET}/cold/_zoo_usage_owner.json`);
    expect(existsSync(other)).toBe(false);
  });
});

test("a run killed during an upload keeps its partitions dirty, and the next run finishes them", async () => {
  const { db, cleanup } = await tempWorkspace();
  try {
    // Hold the third partition's upload: two are confirmed, the rest not yet.
    let seen = 0;
    const hold = s3.holdWhen((request) => isPartitionPut(request) && ++seen === 3);
    const run = spawnCli(exportArgs(db, "killed"), {
      env: env(),
      timeoutMs: 120_000,
      onSpawn: (child) => {
        hold.held.then(() => child.kill("SIGKILL"));
      },
    });
    await whileRunning(hold.held, run, "the third upload");
    const killed = await run;
    hold.release();
    expect(killed.signal).toBe("SIGKILL");
    const [dirty] = await queryDb(db, "SELECT count(*)::INTEGER AS n FROM internal.parquet_dirty");
    expect(Number(dirty?.n)).toBeGreaterThan(0);
    s3.requests.length = 0;
    const resumed = await spawnCli(exportArgs(db, "killed"), { env: env(), timeoutMs: 120_000 });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(summaryOf(resumed.stdout).upload?.objects).toBeGreaterThanOrEqual(Number(dirty?.n));
    expect(await queryDb(db, "SELECT count(*)::INTEGER AS n FROM internal.parquet_dirty")).toEqual([
      { n: 0 },
    ]);
    await expectBucketEqualsWarehouse(db, "killed");
  } finally {
    await cleanup();
  }
});

test("one SIGTERM during a held upload: the request abandoned, exit 130, and the next run finishes", async () => {
  const { db, cleanup } = await tempWorkspace();
  try {
    // A limit of an hour: only the signal can end the held upload.
    const slowStore = { ...env(), ZOO_USAGE_STORE_TIMEOUT: "3600" };
    let seen = 0;
    const hold = s3.holdWhen((request) => isPartitionPut(request) && ++seen === 2);
    let signalledAt = 0;
    const run = spawnCli(exportArgs(db, "stopped"), {
      env: slowStore,
      timeoutMs: 120_000,
      onSpawn: (child) => {
        hold.held.then(() => {
          s3.requests.length = 0;
          signalledAt = performance.now();
          child.kill("SIGTERM");
        });
      },
    });
    await whileRunning(hold.held, run, "the second upload");
    const stopped = await run;
    const exitMs = performance.now() - signalledAt;
    await hold.abandoned;
    hold.release();
    expect(stopped.code, stopped.stderr).toBe(130);
    // Nothing was sent to the store after the signal.
    expect(s3.requests).toEqual([]);
    console.log(`SIGTERM during a held upload: exit 130 ${Math.round(exitMs)} ms after the signal`);
    const [dirty] = await queryDb(db, "SELECT count(*)::INTEGER AS n FROM internal.parquet_dirty");
    expect(Number(dirty?.n)).toBeGreaterThan(0);
    const resumed = await spawnCli(exportArgs(db, "stopped"), { env: env(), timeoutMs: 120_000 });
    expect(resumed.code, resumed.stderr).toBe(0);
    await expectBucketEqualsWarehouse(db, "stopped");
  } finally {
    await cleanup();
  }
});

test("503 SlowDown and dropped connections are retried with backoff, and the run completes", async () => {
  const { db, cleanup } = await tempWorkspace();
  try {
    let refused = 0;
    s3.intercept = (request) => {
      if (!isPartitionPut(request) || refused >= 4) return undefined;
      refused += 1;
      if (refused % 2 === 0) return "drop";
      return {
        status: 503,
        body: "<Error><Code>SlowDown</Code><Message>Please reduce your request rate.</Message></Error>",
      };
    };
    s3.requests.length = 0;
    const result = await spawnCli(exportArgs(db, "throttled"), { env: env(), timeoutMs: 120_000 });
    expect(result.code, result.stderr).toBe(0);
    expect(refused).toBe(4);
    const keys = await expectBucketEqualsWarehouse(db, "throttled");
    const partitions = keys.filter((key) => key.endsWith("/data.parquet")).length;
    expect(s3.requests.filter(isPartitionPut).length).toBe(partitions + 4);
  } finally {
    s3.intercept = undefined;
    await cleanup();
  }
});

test("credentials from a profile (AWS_PROFILE and the shared files) are taken as the AWS CLI takes them", async () => {
  const { dir, db, cleanup } = await tempWorkspace();
  try {
    const credentials = path.join(dir, "credentials");
    await writeFile(credentials, "[zoo-usage]\naws_access_key_id = S3RVER\naws_secret_access_key = S3RVER\n");
    const { AWS_ACCESS_KEY_ID: _id, AWS_SECRET_ACCESS_KEY: _secret, ...withoutKeys } = env();
    const profileEnv = {
      ...withoutKeys,
      AWS_PROFILE: "zoo-usage",
      AWS_SHARED_CREDENTIALS_FILE: credentials,
      AWS_CONFIG_FILE: path.join(dir, "config"),
    };
    const result = await spawnCli(exportArgs(db, "profile"), { env: profileEnv, timeoutMs: 120_000 });
    expect(result.code, result.stderr).toBe(0);
    expect(summaryOf(result.stdout).upload?.objects).toBeGreaterThan(0);
    // Another profile's name: refused as credentials, before any data work.
    const other = await spawnCli(exportArgs(path.join(dir, "other.duckdb"), "profile"), {
      env: { ...profileEnv, AWS_PROFILE: "no-such-profile" },
      timeoutMs: 120_000,
    });
    expect(other.code, other.stderr).toBe(2);
    expect(other.stdout).toContain("output.s3_credentials");
  } finally {
    await cleanup();
  }
});

interface RefusalCase {
  what: string;
  out: string;
  extra: Record<string, string>;
  code: string;
  hint: RegExp;
}

describe("refused before any data work", () => {
  test.each<RefusalCase>([
    {
      what: "wrong credentials",
      out: `s3://${BUCKET}/refused`,
      extra: { AWS_ACCESS_KEY_ID: "AKIAWRONGWRONGWRONG1" },
      code: "output.s3_credentials",
      hint: /AWS_ACCESS_KEY_ID/,
    },
    {
      what: "a missing bucket",
      out: "s3://no-such-bucket/refused",
      extra: {},
      code: "output.s3_bucket",
      hint: /Create the bucket/,
    },
    {
      what: "denied access",
      out: `s3://${BUCKET}/denied`,
      extra: { DENY: "1" },
      code: "output.s3_denied",
      hint: /s3:PutObject/,
    },
  ])("$what: exit 2 with a hint, no database made, no API request", async ({ out, extra, code, hint }) => {
    const { db, cleanup } = await tempWorkspace();
    const apiRequests = sim.stats.requests;
    if ("DENY" in extra)
      s3.intercept = (request) =>
        request.method === "PUT"
          ? { status: 403, body: "<Error><Code>AccessDenied</Code><Message>Access Denied</Message></Error>" }
          : undefined;
    try {
      const result = await spawnCli(["export", "--db", db, "--out", out], {
        env: env(extra),
        timeoutMs: 60_000,
      });
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toContain(code);
      expect(result.stderr).toMatch(hint);
      expect(existsSync(db)).toBe(false);
      expect(sim.stats.requests).toBe(apiRequests);
    } finally {
      s3.intercept = undefined;
      await cleanup();
    }
  });
});
