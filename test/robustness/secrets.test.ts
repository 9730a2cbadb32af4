import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, expect, test, vi } from "vitest";
import { DEMO_EXPORTING_USER, demoSimulatorOptions } from "../../src/cli/demoAccount.js";
import { createDataset, type RunningSimulator, startSimulator } from "../../src/sim/index.js";
import { type CliResult, runCli } from "../helpers/cli.js";
import { startCountingProxy } from "../helpers/countingProxy.js";
import { tempWorkspace } from "../helpers/exportHarness.js";
import { startS3Server } from "../helpers/s3Server.js";

/**
 * Runs the demo, exports, failure paths and --debug with recognisable tokens, then searches every
 * byte written (stdout, stderr, the database, WAL, key, spool and Parquet files) for the API tokens
 * and for every page token the API handed out: none may appear. The same for the AWS secret key and
 * session token of an s3:// --out, across a run, a throttled one and refused ones.
 *
 * The runs are in-process; what they might write past the streams they are handed (to this
 * process's stdout or stderr, the console, a warning) is searched too, as a process's whole output
 * would be.
 */
const CANARY = "zoo-SECRET-canary-token-4f9c2e7a1b3d";
const WRONG = "zoo-SECRET-wrong-token-8e1d5c3a9f7b";

let sim: RunningSimulator;
beforeAll(async () => {
  sim = await startSimulator({ seed: 81, calls: 1500, days: 10, users: 2, firstUserToken: CANARY });
});
afterAll(() => sim.close());

/**
 * Records what is written past the CLI's own streams while `run` runs: to process.stdout or
 * process.stderr, through the console, or as a process warning. It still goes where it went.
 */
async function strayOutput(run: () => Promise<void>): Promise<string> {
  const spies = [
    vi.spyOn(process.stdout, "write"),
    vi.spyOn(process.stderr, "write"),
    ...(["log", "info", "warn", "error", "debug", "trace"] as const).map((method) =>
      vi.spyOn(console, method),
    ),
    vi.spyOn(process, "emitWarning"),
  ];
  try {
    await run();
    return spies.flatMap((spy) => spy.mock.calls.flat().map((arg) => String(arg))).join("\n");
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
}

async function everyByteUnder(dir: string): Promise<string> {
  const parts: string[] = [];
  for (const name of await readdir(dir, { recursive: true })) {
    const bytes = await readFile(path.join(dir, String(name))).catch(() => undefined);
    if (bytes !== undefined) parts.push(bytes.toString("latin1"));
  }
  return parts.join("\n");
}

test("no API token and no page token appears in any output or file", async () => {
  const { dir, db, out, cleanup } = await tempWorkspace();
  const pageTokens = new Set<string>();
  const proxy = await startCountingProxy(
    sim.url,
    (pathname, body) => {
      const next =
        pathname === "/user/api-calls" ? (JSON.parse(body) as { next_page?: string | null }).next_page : null;
      if (next) pageTokens.add(next);
      return body;
    },
    // Every 7th listing fails, so retries and their log lines are part of what is searched.
    (pathname, _, count) =>
      pathname === "/user/api-calls" && count % 7 === 0
        ? { status: 503, body: JSON.stringify({ message: "unavailable", request_id: "r" }) }
        : undefined,
  );
  const results: CliResult[] = [];
  let demoToken = "";
  try {
    const env = { ZOO_API_TOKEN: CANARY, ZOO_HOST: proxy.url };
    const stray = await strayOutput(async () => {
      const exportArgs = ["export", "--db", db, "--out", out, "--limit", "50", "--debug"];
      results.push(await runCli(exportArgs, { env }));
      sim.clock.advance(86_400_000);
      results.push(await runCli([...exportArgs, "--json"], { env }));
      // Failure paths: a wrong token, retries running out, an operation that is not there, bad flags.
      results.push(await runCli(exportArgs, { env: { ...env, ZOO_API_TOKEN: WRONG } }));
      results.push(await runCli([...exportArgs, "--max-attempts", "1", "--full-refresh"], { env }));
      results.push(
        await runCli(["operation", "get", "00000000-0000-4000-8000-000000000000", "--debug"], { env }),
      );
      results.push(
        await runCli(["export", "--db", db, "--out", out, "--base-url", "http://example.com", "--debug"], {
          env,
        }),
      );
      results.push(await runCli(["export", "--print-config", "--db", db], { env }));
      results.push(
        await runCli(["report", "--db", db, "--html", path.join(dir, "report.html"), "--debug"], { env }),
      );
      // The demo, with its own simulator credential.
      demoToken =
        createDataset(demoSimulatorOptions(new Date(), 2000)).users[DEMO_EXPORTING_USER]?.token ?? "";
      results.push(await runCli(["demo", "--calls", "2000", "--debug", "--no-summary"], { cwd: dir }));
    });

    expect(results[0]?.code, results[0]?.stderr).toBe(0);
    expect(results[2]?.code).toBe(3);
    expect(results[3]?.code).toBe(4);
    expect(results.at(-1)?.code, results.at(-1)?.stderr).toBe(0);
    expect(pageTokens.size).toBeGreaterThan(10);
    const written = [
      ...results.map((result) => `${result.stdout}\n${result.stderr}`),
      stray,
      await everyByteUnder(dir),
    ].join("\n");
    for (const secret of [CANARY, WRONG, demoToken, ...pageTokens]) {
      expect(written.includes(secret), `secret ${secret.slice(0, 12)}… was written somewhere`).toBe(false);
    }
    // Sanity: the search does see what was written (the request ids of the failures, for one).
    expect(written).toContain("request id");
    // The --debug request lines name the page token's place, marked as a person reads it.
    expect(results[0]?.stderr).toMatch(/GET \/user\/api-calls\?\S*page_token=\[redacted\]/);
    expect(written).not.toContain("%5Bredacted%5D");
  } finally {
    await proxy.close();
    await cleanup();
  }
});

const AWS_SECRET = "aws-SECRET-canary-key-7d2f9a4c1e8b";
const AWS_SESSION = "aws-SESSION-canary-token-3b6e0f5a2c9d";

test("no AWS secret key or session token appears in any output, file or object", async () => {
  const { dir, db, cleanup } = await tempWorkspace();
  const s3 = await startS3Server(["canary"]);
  const results: CliResult[] = [];
  try {
    const env = {
      ZOO_API_TOKEN: CANARY,
      ZOO_HOST: sim.url,
      ...s3.env(),
      AWS_SECRET_ACCESS_KEY: AWS_SECRET,
      AWS_SESSION_TOKEN: AWS_SESSION,
    };
    let refused = 0;
    const stray = await strayOutput(async () => {
      const exportArgs = ["export", "--db", db, "--out", "s3://canary/usage", "--debug"];
      results.push(await runCli(exportArgs, { env }));
      // Throttled uploads, retried and logged with --debug.
      s3.intercept = (request) => {
        if (request.method !== "PUT" || !request.path.endsWith("/data.parquet") || refused >= 2)
          return undefined;
        refused += 1;
        return {
          status: 503,
          body: "<Error><Code>SlowDown</Code><Message>Reduce your request rate.</Message></Error>",
        };
      };
      // A second prefix for the same database: every partition is missing there, so all are uploaded.
      results.push(
        await runCli(["export", "--db", db, "--out", "s3://canary/again", "--debug", "--json"], { env }),
      );
      s3.intercept = undefined;
      // Refused: another key id, a missing bucket, and --print-config.
      results.push(await runCli(exportArgs, { env: { ...env, AWS_ACCESS_KEY_ID: "AKIACANARYWRONG00001" } }));
      results.push(
        await runCli(["export", "--db", db, "--out", "s3://no-such-bucket/usage", "--debug"], { env }),
      );
      results.push(
        await runCli(["export", "--print-config", "--db", db, "--out", "s3://canary/usage"], { env }),
      );
    });
    expect(results[0]?.code, results[0]?.stderr).toBe(0);
    expect(results[1]?.code, results[1]?.stderr).toBe(0);
    expect(refused).toBe(2);
    expect(results[2]?.code).toBe(2);
    expect(results[3]?.code).toBe(2);
    const objects = path.join(dir, "objects");
    expect(await s3.download("canary", "usage/", objects)).toContain("_zoo_usage_owner.json");
    const written = [
      ...results.map((result) => `${result.stdout}\n${result.stderr}`),
      stray,
      await everyByteUnder(dir),
    ].join("\n");
    for (const secret of [AWS_SECRET, AWS_SESSION, CANARY]) {
      expect(written.includes(secret), `secret ${secret.slice(0, 12)}… was written somewhere`).toBe(false);
    }
    // Sanity: the search does see what was written: the refusal, and the objects read back.
    expect(written).toContain("output.s3_credentials");
    expect(written).toContain("warehouse_id");
    expect(written).toMatch(/uploaded \d+ objects/);
  } finally {
    await s3.close();
    await cleanup();
  }
});
