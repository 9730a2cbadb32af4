import { existsSync } from "node:fs";
import { mkdir, readdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { GetObjectCommand, PutObjectCommand } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type RunningSimulator, startSimulator } from "../../src/sim/index.js";
import { type CliResult, runCli, whileRunning } from "../helpers/cli.js";
import { tempWorkspace } from "../helpers/exportHarness.js";
import {
  exportEnv,
  isPartitionPut,
  type S3Request,
  type S3Server,
  startS3Server,
} from "../helpers/s3Server.js";

/**
 * --out as the warehouse's own (in-process runs against s3rver behind the recording proxy): a new
 * --out holding foreign files is refused unless adopted; two new warehouses claiming one prefix on a
 * store that ignores If-None-Match (s3rver does) never both upload; and what the store or a marker
 * says reaches the output only escaped and redacted.
 */
const BUCKET = "owned";
const OWNER = "_zoo_usage_owner.json";

let sim: RunningSimulator;
let s3: S3Server;
beforeAll(async () => {
  sim = await startSimulator({ seed: 47, calls: 300, days: 4, users: 1 });
  s3 = await startS3Server([BUCKET]);
});
afterAll(async () => {
  await s3.close();
  await sim.close();
});

const env = (extra: Record<string, string> = {}) => exportEnv(sim, s3, extra);

const exportTo = (db: string, out: string, ...more: string[]) =>
  runCli(["export", "--db", db, "--out", out, "--no-operations", ...more], { env: env() });

async function put(key: string, body: string): Promise<void> {
  await s3.client.send(new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: body }));
}

function expectForeignRefused(result: CliResult, db: string): void {
  expect(result.code, result.stderr).toBe(2);
  expect(result.stderr).toContain("code: output.foreign_objects");
  // Five names, then how many there are in all.
  expect(result.stderr).toMatch(
    /api_calls\/created_month=2020-01\/data\.parquet, notes-1\.txt, .*\(7 in all\)/,
  );
  expect(result.stderr).toContain("--adopt-out");
  expect(existsSync(db)).toBe(false);
}

const STRAYS = [
  "api_calls/created_month=2020-01/data.parquet",
  ...Array.from({ length: 6 }, (_, index) => `notes-${index + 1}.txt`),
];

describe("a new --out holding files this export did not write", () => {
  test("a bucket prefix: refused naming them, exit 2, before the database is made; adopted with --adopt-out", async () => {
    const { dir, cleanup } = await tempWorkspace();
    try {
      for (const name of STRAYS) await put(`foreign/${name}`, "not parquet");
      const db = path.join(dir, "a.duckdb");
      const apiRequests = sim.stats.requests;
      expectForeignRefused(await exportTo(db, `s3://${BUCKET}/foreign`), db);
      expect(sim.stats.requests).toBe(apiRequests);
      const adopted = await exportTo(db, `s3://${BUCKET}/foreign`, "--adopt-out");
      expect(adopted.code, adopted.stderr).toBe(0);
      // Claimed: the next run needs no flag.
      expect((await exportTo(db, `s3://${BUCKET}/foreign`)).code).toBe(0);
    } finally {
      await cleanup();
    }
  });

  test("a local directory: the same, through the same check", async () => {
    const { dir, out, cleanup } = await tempWorkspace();
    try {
      for (const name of STRAYS) {
        await mkdir(path.dirname(path.join(out, name)), { recursive: true });
        await writeFile(path.join(out, name), "not parquet");
      }
      const db = path.join(dir, "a.duckdb");
      expectForeignRefused(await exportTo(db, out), db);
      const adopted = await runCli(["export", "--db", db, "--out", out, "--no-operations"], {
        env: env({ ZOO_USAGE_ADOPT_OUT: "1" }),
      });
      expect(adopted.code, adopted.stderr).toBe(0);
      expect(await readdir(out)).toContain(OWNER);
    } finally {
      await cleanup();
    }
  });
});

describe("two new warehouses claim one prefix at once; the store ignores If-None-Match", () => {
  const markerKey = (prefix: string) => `/${BUCKET}/${prefix}/${OWNER}`;
  const nth = (wanted: (request: S3Request) => boolean, n: number) => {
    let seen = 0;
    return (request: S3Request) => wanted(request) && ++seen === n;
  };

  test("both marker writes land: the one overwritten finds the other's marker before its first upload", async () => {
    const { dir, cleanup } = await tempWorkspace();
    const marker = markerKey("race");
    const isMarker = (method: string) => (request: S3Request) =>
      request.method === method && request.path === marker;
    try {
      // A reads no marker and writes its own: held.
      const aPut = s3.holdWhen(nth(isMarker("PUT"), 1));
      const runA = exportTo(path.join(dir, "a.duckdb"), `s3://${BUCKET}/race`);
      await whileRunning(aPut.held, runA, "A's marker write");
      // B reads no marker either (A's is held) and writes its own: held too.
      const bPut = s3.holdWhen(nth(isMarker("PUT"), 1));
      const runB = exportTo(path.join(dir, "b.duckdb"), `s3://${BUCKET}/race`);
      await whileRunning(bPut.held, runB, "B's marker write");
      // A's write lands and reads back as A's; A's look before its first upload is held.
      const aCheck = s3.holdWhen(nth(isMarker("GET"), 2));
      aPut.release();
      await whileRunning(aCheck.held, runA, "A's check before its first upload");
      // B's write overwrites A's marker; B reads it back, finds it its own, and uploads.
      bPut.release();
      const b = await runB;
      expect(b.code, b.stderr).toBe(0);
      const afterB = s3.requests.length;
      aCheck.release();
      const a = await runA;
      expect(a.code, a.stderr).toBe(2);
      expect(a.stderr).toContain("code: output.other_warehouse");
      expect(a.stderr).toMatch(/belongs to another database: b\.duckdb/);
      expect(s3.requests.slice(afterB).filter(isPartitionPut)).toEqual([]);
      expect(s3.requests.slice(afterB).filter((request) => request.method === "DELETE")).toEqual([]);
      const owner = await s3.client.send(new GetObjectCommand({ Bucket: BUCKET, Key: `race/${OWNER}` }));
      expect(JSON.parse(await (owner.Body?.transformToString() ?? "{}")).database).toBe("b.duckdb");
    } finally {
      await cleanup();
    }
  });

  test("a claim that lands after the other uploaded finds its objects before its own first upload", async () => {
    const { dir, cleanup } = await tempWorkspace();
    const marker = markerKey("late");
    try {
      const aPut = s3.holdWhen(nth((r) => r.method === "PUT" && r.path === marker, 1));
      const runA = exportTo(path.join(dir, "a.duckdb"), `s3://${BUCKET}/late`);
      await whileRunning(aPut.held, runA, "A's marker write");
      // B claims and uploads everything while A's claim is in flight.
      const b = await exportTo(path.join(dir, "b.duckdb"), `s3://${BUCKET}/late`);
      expect(b.code, b.stderr).toBe(0);
      const afterB = s3.requests.length;
      // A's write then overwrites B's marker and reads back as A's: the listing gives it away.
      aPut.release();
      const a = await runA;
      expect(a.code, a.stderr).toBe(2);
      expect(a.stderr).toContain("code: output.other_warehouse");
      expect(a.stderr).toMatch(/appeared after this run claimed it/);
      expect(s3.requests.slice(afterB).filter(isPartitionPut)).toEqual([]);
      // A removed its marker: B's data is left without one, for B to adopt.
      const again = await exportTo(path.join(dir, "b.duckdb"), `s3://${BUCKET}/late`, "--adopt-out");
      expect(again.code, again.stderr).toBe(0);
    } finally {
      await cleanup();
    }
  });
});

describe("what the store and the marker say is shown escaped and redacted", () => {
  const SESSION = "IQoJb3JpZ2luX2VjECANARYsession/token+value==";
  const OTHER = "FwoGZXIvYXdzEOtherToken";

  test("a store echoing the session token: in no output, and no forged line", async () => {
    const { dir, cleanup } = await tempWorkspace();
    s3.intercept = (request) =>
      request.method === "PUT"
        ? {
            status: 403,
            body: `<Error><Code>AccessDenied</Code><Message>Denied for token ${SESSION} at /k?x-amz-security-token=${OTHER}&amp;X-Amz-Signature=abc \u001b[31m</Message></Error>`,
          }
        : undefined;
    try {
      for (const more of [[], ["--json", "--log-format", "json"]]) {
        const result = await runCli(
          ["export", "--db", path.join(dir, "a.duckdb"), "--out", `s3://${BUCKET}/echo`, ...more],
          { env: env({ AWS_SESSION_TOKEN: SESSION }) },
        );
        expect(result.code, result.stderr).toBe(2);
        const output = result.stdout + result.stderr;
        expect(output).toContain("output.s3_denied");
        expect(output).toContain("x-amz-security-token=[redacted]");
        for (const secret of [SESSION, encodeURIComponent(SESSION), OTHER, "X-Amz-Signature=abc", "\u001b"])
          expect(output).not.toContain(secret);
      }
    } finally {
      s3.intercept = undefined;
      await cleanup();
    }
  });

  test("a marker whose fields hold a line break and an escape: escaped in the refusal", async () => {
    const { dir, cleanup } = await tempWorkspace();
    try {
      await put(
        `forged/${OWNER}`,
        JSON.stringify({
          warehouse_id: "w-\u001b[2J",
          database: "x.duckdb\nerror: forged line",
          claimed_at: "x",
        }),
      );
      for (const more of [[], ["--json"]]) {
        const result = await exportTo(path.join(dir, "a.duckdb"), `s3://${BUCKET}/forged`, ...more);
        expect(result.code, result.stderr).toBe(2);
        expect(result.stderr).toContain("x.duckdb\\nerror: forged line");
        expect(result.stderr).toContain("w-\\x1b[2J");
        const lines = `${result.stdout}${result.stderr}`.split("\n");
        expect(lines.filter((line) => line.startsWith("error: forged"))).toEqual([]);
        expect(`${result.stdout}${result.stderr}`).not.toContain("\u001b");
      }
    } finally {
      await cleanup();
    }
  });
});
