import { randomBytes } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { GetObjectCommand, PutObjectCommand } from "@aws-sdk/client-s3";
import { afterAll, afterEach, beforeAll, expect, test } from "vitest";
import { DEFAULT_RETRY_POLICY } from "../../src/api/retryPolicy.js";
import { openS3Bucket, type S3Bucket } from "../../src/destination/s3Bucket.js";
import { ZooUsageError } from "../../src/errors.js";
import { S3_KEY_ID, S3_SECRET, type S3Request, type S3Server, startS3Server } from "../helpers/s3Server.js";

/**
 * The bucket operations against s3rver, in process: a file over the part size goes up as a
 * multipart upload, and until it completes a reader still gets the previous object whole; a failed
 * upload is aborted and leaves the previous object.
 */
const BUCKET = "parts";
let s3: S3Server;
let dir: string;
let bucket: S3Bucket;

beforeAll(async () => {
  s3 = await startS3Server([BUCKET]);
  dir = await mkdtemp(path.join(os.tmpdir(), "zoo-usage-s3-bucket-"));
  bucket = await openS3Bucket(
    { bucket: BUCKET, prefix: "data" },
    {
      endpoint: s3.endpoint,
      region: null,
      addressing: "auto",
      requestChecksums: null,
      credentials: { accessKeyId: S3_KEY_ID, secretAccessKey: S3_SECRET },
      timeoutMs: 60_000,
    },
    { ...DEFAULT_RETRY_POLICY, maxAttempts: 3 },
    Date.now,
    { stop: new AbortController().signal },
  );
});
afterEach(() => {
  s3.intercept = undefined;
  s3.rewriteBody = undefined;
});

/** The checksum the SDK computes over a PUT's or a part's body, which S3 verifies on receipt. */
const hasChecksum = (request: S3Request) =>
  request.headers["x-amz-sdk-checksum-algorithm"] === "CRC32" &&
  typeof request.headers["x-amz-checksum-crc32"] === "string";
afterAll(async () => {
  bucket.close();
  await s3.close();
  await rm(dir, { recursive: true, force: true });
});

async function objectBytes(key: string): Promise<Buffer> {
  const object = await s3.client.send(new GetObjectCommand({ Bucket: BUCKET, Key: key }));
  return Buffer.from(await (object.Body?.transformToByteArray() ?? new Uint8Array()));
}

test("a file over the part size is a multipart upload; readers see the old object until it completes", async () => {
  const key = "data/api_calls/created_month=2026-10/data.parquet";
  await s3.client.send(new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: "the previous object" }));
  const file = path.join(dir, "big.parquet");
  const bytes = randomBytes(19 * 1024 * 1024);
  await writeFile(file, bytes);
  s3.requests.length = 0;
  const completing = s3.holdWhen(
    (request) => request.method === "POST" && request.search.includes("uploadId="),
  );
  const upload = bucket.uploadFile(key, file);
  await completing.held;
  // Every part is stored (3 of 8 MiB at most), the completion is held: the key still holds the
  // previous object, whole.
  const parts = s3.requests.filter(
    (request) => request.method === "PUT" && request.search.includes("partNumber="),
  );
  expect(parts.length).toBe(3);
  expect(parts.filter(hasChecksum).length).toBe(3);
  expect((await objectBytes(key)).toString()).toBe("the previous object");
  // The held completion's connection is dropped: a network error, retried, and the upload completes.
  completing.release();
  expect(await upload).toBe(bytes.length);
  expect((await objectBytes(key)).equals(bytes)).toBe(true);
});

test("an upload the store acknowledged but holds short fails as output.s3_incomplete, exit 3", async () => {
  const key = "data/api_calls/created_month=2026-12/data.parquet";
  const file = path.join(dir, "short.parquet");
  const bytes = randomBytes(64 * 1024);
  await writeFile(file, bytes);
  s3.requests.length = 0;
  // Cut on the way, Content-Length fixed: s3rver checks no checksum, stores it and answers 200.
  s3.rewriteBody = (request) =>
    request.method === "PUT" && decodeURIComponent(request.path).endsWith(key)
      ? (body) => body.subarray(0, 1000)
      : undefined;
  const failure = await bucket.uploadFile(key, file).catch((error: unknown) => error);
  expect(failure).toBeInstanceOf(ZooUsageError);
  expect((failure as ZooUsageError).code).toBe("output.s3_incomplete");
  expect((failure as ZooUsageError).exitCode).toBe(3);
  expect((failure as ZooUsageError).message).toContain(`holds 1000 bytes of the ${bytes.length} sent`);
  const puts = s3.requests.filter((request) => request.method === "PUT");
  expect(puts.length).toBe(1);
  expect(puts.every(hasChecksum)).toBe(true);
  expect((await objectBytes(key)).length).toBe(1000);
  // Uncut, the same upload is confirmed.
  s3.rewriteBody = undefined;
  expect(await bucket.uploadFile(key, file)).toBe(bytes.length);
  expect((await objectBytes(key)).equals(bytes)).toBe(true);
});

test("a multipart upload that fails is aborted, and the previous object stays", async () => {
  const key = "data/api_calls/created_month=2026-11/data.parquet";
  await s3.client.send(new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: "kept" }));
  const file = path.join(dir, "refused.parquet");
  await writeFile(file, randomBytes(17 * 1024 * 1024));
  s3.requests.length = 0;
  s3.intercept = (request) =>
    request.search.includes("partNumber=2")
      ? { status: 400, body: "<Error><Code>InvalidPart</Code><Message>refused</Message></Error>" }
      : undefined;
  const failure = await bucket.uploadFile(key, file).catch((error: unknown) => error);
  expect(failure).toBeInstanceOf(ZooUsageError);
  expect((failure as ZooUsageError).code).toBe("output.s3_failed");
  expect((failure as ZooUsageError).message).toContain(`s3://${BUCKET}/${key}`);
  expect(
    s3.requests.some((request) => request.method === "DELETE" && request.search.includes("uploadId=")),
  ).toBe(true);
  expect((await objectBytes(key)).toString()).toBe("kept");
});

test("keys are listed page after page", async () => {
  await Promise.all(
    Array.from({ length: 5 }, (_, i) =>
      s3.client.send(
        new PutObjectCommand({ Bucket: BUCKET, Key: `data/many/k=${i}/data.parquet`, Body: "" }),
      ),
    ),
  );
  const paged = await openS3Bucket(
    { bucket: BUCKET, prefix: "data" },
    {
      endpoint: s3.endpoint,
      region: null,
      addressing: "auto",
      requestChecksums: null,
      credentials: { accessKeyId: S3_KEY_ID, secretAccessKey: S3_SECRET },
      timeoutMs: 60_000,
    },
    DEFAULT_RETRY_POLICY,
    Date.now,
    { stop: new AbortController().signal, listPageSize: 2 },
  );
  s3.requests.length = 0;
  try {
    expect((await paged.keysUnder("many")).sort()).toEqual(
      Array.from({ length: 5 }, (_, i) => `data/many/k=${i}/data.parquet`),
    );
  } finally {
    paged.close();
  }
  expect(s3.requests.filter((request) => request.search.includes("list-type=2")).length).toBe(3);
});
