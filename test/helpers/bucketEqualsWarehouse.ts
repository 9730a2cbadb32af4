import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { expect } from "vitest";
import { queryDb } from "./exportHarness.js";
import type { S3Server } from "./s3Server.js";

/** What both sides must agree on: rows, distinct ids, the ids themselves, the exact price sum. */
const FACTS =
  "count(*)::INTEGER AS n, count(DISTINCT id)::INTEGER AS ids, sum(price_usd)::VARCHAR AS total, md5(string_agg(id::VARCHAR, ',' ORDER BY id)) AS id_digest";

/**
 * The calls' dataset under a local `dir` equals the warehouse's api_calls: its files read by DuckDB
 * (hive partitioning, as a reader would) hold the same ids, as many rows, and the same sum of
 * price_usd to the micro-dollar (DECIMAL, compared as text).
 */
export async function expectDatasetEqualsWarehouse(db: string, dir: string): Promise<void> {
  const [table] = await queryDb(db, `SELECT ${FACTS} FROM api_calls`);
  const instance = await DuckDBInstance.create(":memory:");
  const connection = await instance.connect();
  try {
    const read = await connection.runAndReadAll(
      `SELECT ${FACTS} FROM read_parquet('${dir}/api_calls/**/*.parquet', hive_partitioning = true)`,
    );
    expect(read.getRowObjectsJS()[0]).toEqual(table);
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
  expect(Number(table?.n)).toBeGreaterThan(0);
}

/** The same for the dataset under `bucket/prefix`, its objects downloaded first. */
export async function expectBucketEqualsWarehouse(
  s3: S3Server,
  bucket: string,
  prefix: string,
  db: string,
): Promise<void> {
  const mirror = await mkdtemp(path.join(os.tmpdir(), "zoo-usage-s3-mirror-"));
  try {
    await s3.download(bucket, `${prefix}/`, mirror);
    await expectDatasetEqualsWarehouse(db, mirror);
  } finally {
    await rm(mirror, { recursive: true, force: true });
  }
}
