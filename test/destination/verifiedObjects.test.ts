import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { GetObjectCommand, ListObjectsV2Command, PutObjectCommand } from "@aws-sdk/client-s3";
import { DuckDBInstance } from "@duckdb/node-api";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type RunningSimulator, startSimulator } from "../../src/sim/index.js";
import {
  expectBucketEqualsWarehouse,
  expectDatasetEqualsWarehouse,
} from "../helpers/bucketEqualsWarehouse.js";
import { runCli } from "../helpers/cli.js";
import { queryDb, tempWorkspace } from "../helpers/exportHarness.js";
import {
  exportEnv,
  isPartitionPut,
  type S3Request,
  type S3Server,
  startS3Server,
} from "../helpers/s3Server.js";

/**
 * Objects the store holds whole, or not for long: every PUT and part carries a checksum, a stored
 * size that differs from the bytes sent fails the run and leaves the partition to the next one,
 * and --verify-out finds a partition file cut short behind the exporter's back (in a bucket and in
 * a directory) and rewrites it in the same run. In process, against s3rver through the recording
 * proxy; after each repair the dataset equals the warehouse: rows, ids and the exact sum of prices.
 */
const BUCKET = "verified";

let sim: RunningSimulator;
let s3: S3Server;
let token: string;
beforeAll(async () => {
  sim = await startSimulator({ seed: 47, calls: 400, days: 4, users: 1 });
  token = sim.users[0]?.token ?? "";
  s3 = await startS3Server([BUCKET]);
});
afterAll(async () => {
  await s3.close();
  await sim.close();
});

const env = (extra: Record<string, string> = {}) => exportEnv(sim, s3, extra);
const exportArgs = (db: string, out: string, ...more: string[]) => [
  "export",
  "--db",
  db,
  "--out",
  out,
  "--partition",
  "day",
  ...more,
];
const summaryOf = (stdout: string) =>
  JSON.parse(stdout.trim().split("\n").at(-1) ?? "{}") as {
    verify?: { objects: number; unreadable: number; repaired: number };
  };

const hasChecksum = (request: S3Request) =>
  request.headers["x-amz-sdk-checksum-algorithm"] === "CRC32" &&
  typeof request.headers["x-amz-checksum-crc32"] === "string";

/** An object replaced by its first bytes, as a cut upload or a broken copy would leave it. */
async function truncateObject(key: string): Promise<void> {
  const object = await s3.client.send(new GetObjectCommand({ Bucket: BUCKET, Key: key }));
  const bytes = Buffer.from(await (object.Body?.transformToByteArray() ?? new Uint8Array()));
  await s3.client.send(
    new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: bytes.subarray(0, bytes.length - 100) }),
  );
}

describe("an s3:// --out", () => {
  const workspace = tempWorkspace();
  afterAll(async () => (await workspace).cleanup());

  test("a PUT cut short on the way but acknowledged with 200 fails the run (exit 3); the next run repairs it", async () => {
    const { db } = await workspace;
    s3.requests.length = 0;
    let cut = 0;
    // The second partition's body loses its last 100 bytes; s3rver checks no checksum and stores it.
    s3.rewriteBody = (request) =>
      isPartitionPut(request) && ++cut === 2 ? (body) => body.subarray(0, body.length - 100) : undefined;
    const first = await runCli(exportArgs(db, `s3://${BUCKET}/cut`, "--json"), { env: env() }).finally(() => {
      s3.rewriteBody = undefined;
    });
    expect(first.code, first.stderr).toBe(3);
    expect(first.stderr).toContain("output.s3_incomplete");
    expect(first.stderr).toMatch(/holds \d+ bytes of the \d+ sent/);
    expect(first.stderr).toContain("next run uploads it again");
    const puts = s3.requests.filter((request) => request.method === "PUT");
    expect(puts.filter(isPartitionPut).length).toBe(2);
    // Every PUT (the probe, the owner marker, the partitions) carries the SDK's CRC32.
    expect(puts.filter((request) => !hasChecksum(request))).toEqual([]);
    const [dirty] = await queryDb(db, "SELECT count(*)::INTEGER AS n FROM internal.parquet_dirty");
    expect(Number(dirty?.n)).toBeGreaterThan(0);

    const second = await runCli(exportArgs(db, `s3://${BUCKET}/cut`, "--json"), { env: env() });
    expect(second.code, second.stderr).toBe(0);
    expect(await queryDb(db, "SELECT count(*)::INTEGER AS n FROM internal.parquet_dirty")).toEqual([
      { n: 0 },
    ]);
    await expectBucketEqualsWarehouse(s3, BUCKET, "cut", db);
  });

  test("--verify-out finds objects cut short behind the exporter's back, of every dataset, and rewrites them", async () => {
    const { db } = await workspace;
    const focus = await runCli(exportArgs(db, `s3://${BUCKET}/cut`, "--focus", "--json"), { env: env() });
    expect(focus.code, focus.stderr).toBe(0);
    const listed = await s3.client.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: "cut/" }));
    const keys = (listed.Contents ?? []).map((object) => String(object.Key).slice("cut/".length)).sort();
    const calls = keys.filter((key) => key.startsWith("api_calls/"));
    const ledger = keys.filter((key) => key.startsWith("focus/"));
    const operations = keys.filter((key) => key.startsWith("async_operations/"));
    await truncateObject(`cut/${calls[0]}`);
    await truncateObject(`cut/${ledger[0]}`);
    s3.requests.length = 0;
    const verified = await runCli(exportArgs(db, `s3://${BUCKET}/cut`, "--focus", "--verify-out", "--json"), {
      env: env(),
    });
    expect(verified.code, verified.stderr).toBe(0);
    expect(summaryOf(verified.stdout).verify).toEqual({
      objects: calls.length + ledger.length + operations.length,
      unreadable: 2,
      repaired: 2,
    });
    expect(verified.stderr).toContain(`s3://${BUCKET}/cut/${calls[0]} is not readable Parquet`);
    // The two ends of each object are read, never a whole one.
    const gets = s3.requests.filter(
      (request) => request.method === "GET" && request.path.endsWith(".parquet"),
    );
    expect(gets.length).toBe(2 * (calls.length + ledger.length + operations.length));
    expect(gets.every((request) => /^bytes=\d+-\d+$/.test(String(request.headers.range)))).toBe(true);
    const rewritten = s3.requests.filter(isPartitionPut).map((request) => decodeURIComponent(request.path));
    expect(rewritten).toEqual(
      expect.arrayContaining([`/${BUCKET}/cut/${calls[0]}`, `/${BUCKET}/cut/${ledger[0]}`]),
    );
    await expectBucketEqualsWarehouse(s3, BUCKET, "cut", db);
    const mirror = await mkdtemp(path.join(os.tmpdir(), "zoo-usage-focus-"));
    try {
      await s3.download(BUCKET, "cut/focus/", mirror);
      const [view] = await queryDb(db, "SELECT count(*)::INTEGER AS n FROM focus_costs");
      const instance = await DuckDBInstance.create(":memory:");
      const connection = await instance.connect();
      const read = await connection.runAndReadAll(
        `SELECT count(*)::INTEGER AS n FROM read_parquet('${mirror}/*/*.parquet')`,
      );
      connection.closeSync();
      instance.closeSync();
      expect(read.getRowObjectsJson()[0]).toEqual(view);
    } finally {
      await rm(mirror, { recursive: true, force: true });
    }
  });
});

test("ZOO_USAGE_VERIFY_OUT rewrites a local partition file cut short, and the summary says so", async () => {
  const { db, out, cleanup } = await tempWorkspace();
  try {
    const first = await runCli(exportArgs(db, out), { env: { ZOO_API_TOKEN: token, ZOO_HOST: sim.url } });
    expect(first.code, first.stderr).toBe(0);
    const [partition] = (await queryDb(
      db,
      "SELECT DISTINCT strftime(created_at AT TIME ZONE 'UTC', '%Y-%m-%d') AS day FROM api_calls ORDER BY 1 LIMIT 1",
    )) as { day: string }[];
    const file = path.join(out, "api_calls", `created_day=${partition?.day}`, "data.parquet");
    const bytes = await readFile(file);
    await writeFile(file, bytes.subarray(0, bytes.length - 100));
    const verified = await runCli(exportArgs(db, out), {
      env: { ZOO_API_TOKEN: token, ZOO_HOST: sim.url, ZOO_USAGE_VERIFY_OUT: "1" },
    });
    expect(verified.code, verified.stderr).toBe(0);
    expect(verified.stdout).toMatch(/verified \d+ partition files under --out: 1 unreadable, 1 rewritten/);
    expect((await readFile(file)).length).toBeGreaterThan(bytes.length - 100);
    await expectDatasetEqualsWarehouse(db, out);
  } finally {
    await cleanup();
  }
});
