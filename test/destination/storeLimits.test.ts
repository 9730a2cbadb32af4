import { existsSync } from "node:fs";
import { afterAll, beforeAll, expect, test } from "vitest";
import { type RunningSimulator, startSimulator } from "../../src/sim/index.js";
import { expectBucketEqualsWarehouse } from "../helpers/bucketEqualsWarehouse.js";
import { runCli, testStop, whileRunning } from "../helpers/cli.js";
import { queryDb, tempWorkspace } from "../helpers/exportHarness.js";
import {
  exportEnv,
  isPartitionPut,
  type S3Request,
  type S3Server,
  startS3Server,
} from "../helpers/s3Server.js";

/**
 * What bounds an s3:// --out's requests, in process against s3rver behind the recording proxy: the
 * time limit (--store-timeout, here through ZOO_USAGE_STORE_TIMEOUT), the run's stop, and the
 * listing guard. Each run that fails or is stopped is followed by one that completes the bucket,
 * which then equals the warehouse.
 */
const BUCKET = "limits";

let sim: RunningSimulator;
let s3: S3Server;
beforeAll(async () => {
  sim = await startSimulator({ seed: 47, calls: 400, days: 6, users: 1 });
  s3 = await startS3Server([BUCKET]);
});
afterAll(async () => {
  await s3.close();
  await sim.close();
});

const env = (extra: Record<string, string> = {}) => exportEnv(sim, s3, extra);

function exportArgs(db: string, prefix: string): string[] {
  return ["export", "--db", db, "--out", `s3://${BUCKET}/${prefix}`, "--partition", "day", "--json"];
}

async function dirtyPartitions(db: string): Promise<number> {
  const [row] = await queryDb(db, "SELECT count(*)::INTEGER AS n FROM internal.parquet_dirty");
  return Number(row?.n);
}

/** The run after a failed or stopped one completes the bucket: nothing dirty, the bucket equal to the warehouse. */
async function expectNextRunCompletes(db: string, prefix: string): Promise<void> {
  const next = await runCli(exportArgs(db, prefix), { env: env() });
  expect(next.code, next.stderr).toBe(0);
  expect(await dirtyPartitions(db)).toBe(0);
  await expectBucketEqualsWarehouse(s3, BUCKET, prefix, db);
}

test("a store that never answers the start-up check: exit 3 after one attempt, within the limit, nothing made", async () => {
  const { db, cleanup } = await tempWorkspace();
  const hold = s3.holdWhen(() => true);
  s3.requests.length = 0;
  try {
    const result = await runCli(exportArgs(db, "silent"), { env: env({ ZOO_USAGE_STORE_TIMEOUT: "1" }) });
    expect(result.code, result.stderr).toBe(3);
    expect(result.stderr).toContain("output.s3_unreachable");
    expect(result.stderr).toMatch(/did not answer within 1 s \(--store-timeout\)/);
    expect(result.stderr).toContain("ZOO_USAGE_STORE_TIMEOUT");
    // The listing once: a timed-out request is not retried, so the run ends within the limit.
    expect(s3.requests.map((request) => request.method)).toEqual(["GET"]);
    expect(existsSync(db)).toBe(false);
  } finally {
    hold.release();
    await cleanup();
  }
});

test("a store that stops answering at the uploads: exit 3, the run recorded, the partitions dirty for the next run", async () => {
  const { db, cleanup } = await tempWorkspace();
  // The first partition is confirmed; from the second on, no PUT is answered.
  let puts = 0;
  const hold = s3.holdWhen((request) => isPartitionPut(request) && ++puts >= 2);
  s3.requests.length = 0;
  try {
    const result = await runCli(exportArgs(db, "stalled"), { env: env({ ZOO_USAGE_STORE_TIMEOUT: "1" }) });
    expect(result.code, result.stderr).toBe(3);
    expect(result.stderr).toContain("output.s3_unreachable");
    // The held PUT was sent once and not retried.
    expect(s3.requests.filter(isPartitionPut).slice(1)).toHaveLength(1);
    expect(await queryDb(db, "SELECT status FROM runs")).toEqual([{ status: "failed" }]);
    expect(await dirtyPartitions(db)).toBeGreaterThan(0);
  } finally {
    hold.release();
  }
  try {
    // The database was closed and its lock released: the next run opens it.
    await expectNextRunCompletes(db, "stalled");
  } finally {
    await cleanup();
  }
});

test.each([
  ["the start-up check", (request: S3Request) => request.method === "GET"],
  ["an upload", (request: S3Request) => isPartitionPut(request)],
] as const)(
  "one stop during %s held: the request abandoned, none after, exit 130; the next run completes",
  async (at, match) => {
    const { db, cleanup } = await tempWorkspace();
    let matched = 0;
    // The second upload, so that one partition is already confirmed when the stop comes.
    const hold = s3.holdWhen((request) => match(request) && ++matched === (at === "an upload" ? 2 : 1));
    const stop = testStop();
    const prefix = at === "an upload" ? "stopped-upload" : "stopped-startup";
    s3.requests.length = 0;
    // A limit no test waits for: only the stop can end the held request.
    const run = runCli(exportArgs(db, prefix), {
      env: env({ ZOO_USAGE_STORE_TIMEOUT: "3600" }),
      stop,
    });
    let sentBeforeStop = 0;
    try {
      await whileRunning(hold.held, run, `${at} was held`);
      sentBeforeStop = s3.requests.length;
      stop.send("SIGTERM");
      await hold.abandoned;
    } finally {
      hold.release();
    }
    const stopped = await run;
    expect(stopped.code, stopped.stderr).toBe(130);
    expect(s3.requests.length).toBe(sentBeforeStop);
    if (at === "the start-up check") {
      expect(existsSync(db)).toBe(false);
    } else {
      expect(JSON.parse(stopped.stdout)).toMatchObject({ status: "interrupted", exit_code: 130 });
      expect(await queryDb(db, "SELECT status FROM runs")).toEqual([{ status: "interrupted" }]);
      expect(await dirtyPartitions(db)).toBeGreaterThan(0);
    }
    try {
      await expectNextRunCompletes(db, prefix);
    } finally {
      await cleanup();
    }
  },
);

test("a listing that hands out its continuation token twice: stopped at once, exit 4; the next run completes", async () => {
  const { db, cleanup } = await tempWorkspace();
  const prefix = "looping";
  const listsCalls = (request: S3Request) =>
    request.method === "GET" &&
    request.search.includes("list-type=2") &&
    request.search.includes(encodeURIComponent(`${prefix}/api_calls/`));
  s3.intercept = (request) =>
    listsCalls(request)
      ? {
          status: 200,
          body: `<?xml version="1.0" encoding="UTF-8"?><ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>${BUCKET}</Name><Prefix>${prefix}/api_calls/</Prefix><MaxKeys>1000</MaxKeys><KeyCount>0</KeyCount><IsTruncated>true</IsTruncated><NextContinuationToken>again</NextContinuationToken></ListBucketResult>`,
        }
      : undefined;
  s3.requests.length = 0;
  try {
    const result = await runCli(exportArgs(db, prefix), { env: env() });
    expect(result.code, result.stderr).toBe(4);
    const line = JSON.parse(result.stdout) as { status: string; message: string };
    expect(line.status).toBe("partial");
    expect(line.message).toContain(`Listing anomaly in s3://${BUCKET}/${prefix}/api_calls/`);
    expect(line.message).toContain("continuation token");
    // The first page and the one that repeated its token.
    expect(s3.requests.filter(listsCalls).length).toBe(2);
    // The calls are committed; the dataset waits for a listing that can be trusted.
    expect(Number((await queryDb(db, "SELECT count(*)::INTEGER AS n FROM api_calls"))[0]?.n)).toBeGreaterThan(
      0,
    );
    expect(s3.requests.filter(isPartitionPut)).toEqual([]);
    expect(await dirtyPartitions(db)).toBeGreaterThan(0);
  } finally {
    s3.intercept = undefined;
  }
  try {
    await expectNextRunCompletes(db, prefix);
  } finally {
    await cleanup();
  }
});
