import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { expect } from "vitest";
import { queryDb } from "./exportHarness.js";
import type { S3Server } from "./s3Server.js";

/**
 * The calls' dataset under `bucket/prefix` equals the warehouse's api_calls: the objects
 * downloaded and read by DuckDB (hive partitioning, as a reader would) hold the same ids, as many
 * rows, and the same sum of price_usd to the micro-dollar (DECIMAL, compared as text).
 */
export async function expectBucketEqualsWarehouse(
  s3: S3Server,
  bucket: string,
  prefix: string,
  db: string,
): Promise<void> {
  const mirror = await mkdtemp(path.join(os.tmpdir(), "zoo-usage-s3-mirror-"));
  const facts =
    "count(*)::INTEGER AS n, count(DISTINCT id)::INTEGER AS ids, sum(price_usd)::VARCHAR AS total, md5(string_agg(id::VARCHAR, ',' ORDER BY id)) AS id_digest";
  try {
    await s3.download(bucket, `${prefix}/`, mirror);
    const [table] = await queryDb(db, `SELECT ${facts} FROM api_calls`);
    const instance = await DuckDBInstance.create(":memory:");
    const connection = await instance.connect();
    try {
      const read = await connection.runAndReadAll(
        `SELECT ${facts} FROM read_parquet('${mirror}/api_calls/**/*.parquet', hive_partitioning = true)`,
      );
      expect(read.getRowObjectsJS()[0]).toEqual(table);
    } finally {
      connection.closeSync();
      instance.closeSync();
    }
    expect(Number(table?.n)).toBeGreaterThan(0);
  } finally {
    await rm(mirror, { recursive: true, force: true });
  }
}
