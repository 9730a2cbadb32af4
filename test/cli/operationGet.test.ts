import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createDataset, type RunningSimulator, startSimulator } from "../../src/sim/index.js";
import { runCli, whileRunning } from "../helpers/cli.js";

const OPTIONS = { seed: 5, calls: 3000, days: 20, users: 2 };

/** Finds, in the simulator's own data, an operation of user 0 matching a predicate. */
function findOperation(
  sim: RunningSimulator,
  predicate: (operation: Record<string, unknown>) => boolean,
  options: Parameters<typeof createDataset>[0] = OPTIONS,
): Record<string, unknown> | undefined {
  const dataset = createDataset(options);
  const now = sim.clock.now();
  for (let i = dataset.countCreated(now) - 1; i >= 0; i--) {
    const call = dataset.callAt(i, now);
    if (call.user_id !== sim.users[0]?.id) continue;
    const operation = dataset.operationFor(call.id, now);
    if (operation !== undefined && predicate(operation)) return operation;
  }
  return undefined;
}

describe("zoo-usage operation get", () => {
  let sim: RunningSimulator;
  let env: Record<string, string>;

  beforeAll(async () => {
    sim = await startSimulator(OPTIONS);
    env = { ZOO_API_TOKEN: sim.users[0]?.token ?? "", ZOO_HOST: sim.url };
  });
  afterAll(() => sim.close());

  test("a completed conversion: readable summary, outputs counted not dumped, exit 0", async () => {
    const operation = findOperation(sim, (op) => op.type === "file_conversion" && op.status === "completed");
    expect(operation).toBeDefined();
    const result = await runCli(["operation", "get", String(operation?.id)], { env });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(`Operation ${String(operation?.id)}`);
    expect(result.stdout).toMatch(/type\s+file_conversion/);
    expect(result.stdout).toMatch(/status\s+completed/);
    expect(result.stdout).toMatch(/src_format\s+\w+/);
    expect(result.stdout).toMatch(/outputs\s+\d+ files?, [\d.]+ (B|KiB|MiB)/);
    for (const content of Object.values((operation?.outputs ?? {}) as Record<string, string>)) {
      expect(result.stdout).not.toContain(content);
    }
  });

  test("--json prints the object; --save-outputs writes the decoded files", async () => {
    const operation = findOperation(sim, (op) => op.type === "file_conversion" && op.status === "completed");
    const dir = await mkdtemp(path.join(os.tmpdir(), "zoo-usage-outputs-"));
    try {
      const result = await runCli(
        ["operation", "get", String(operation?.id), "--json", "--save-outputs", dir],
        { env },
      );
      expect(result.code, result.stderr).toBe(0);
      expect(JSON.parse(result.stdout)).toEqual(operation);
      const outputs = (operation?.outputs ?? {}) as Record<string, string>;
      expect(
        (await readdir(dir, { recursive: true })).filter((name) => !name.endsWith("/")).length,
      ).toBeGreaterThan(0);
      for (const [name, base64] of Object.entries(outputs)) {
        expect((await readFile(path.join(dir, name))).equals(Buffer.from(base64, "base64"))).toBe(true);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  test("a failed operation prints its error and exits 5", async () => {
    const operation = findOperation(sim, (op) => op.status === "failed");
    expect(operation).toBeDefined();
    const result = await runCli(["operation", "get", String(operation?.id)], { env });
    expect(result.code).toBe(5);
    expect(result.stdout).toContain(String(operation?.error));
  });

  test("not found (or another user's): exit 3 with the hint; a malformed id: exit 2", async () => {
    const missing = await runCli(["operation", "get", "00000000-0000-4000-8000-000000000000"], { env });
    expect(missing.code).toBe(3);
    expect(missing.stderr).toMatch(/404/);
    expect(missing.stderr).toMatch(/another user/);
    expect(missing.stderr).toMatch(/request id/);
    const malformed = await runCli(["operation", "get", "nope"], { env });
    expect(malformed.code).toBe(2);
    expect(malformed.stderr).toMatch(/not a UUID/);
  });

  describe("--wait", () => {
    // A busy history, so that the newest operations are still running at the simulated now.
    const busy = { seed: 6, calls: 40_000, days: 10, users: 1 };
    let busySim: RunningSimulator;
    let busyEnv: Record<string, string>;
    const unfinished = (op: Record<string, unknown>) => op.status !== "completed" && op.status !== "failed";
    beforeAll(async () => {
      busySim = await startSimulator(busy);
      busyEnv = { ZOO_API_TOKEN: busySim.users[0]?.token ?? "", ZOO_HOST: busySim.url };
    });
    afterAll(() => busySim.close());

    test("gives up at the timeout with exit 5", async () => {
      const operation = findOperation(busySim, unfinished, busy);
      expect(operation).toBeDefined();
      const result = await runCli(["operation", "get", String(operation?.id), "--wait", "--timeout", "1"], {
        env: busyEnv,
      });
      expect(result.code).toBe(5);
      expect(result.stderr).toMatch(/still (in_progress|queued|uploaded) after 1 s/);
    });

    test("returns once the operation finishes", async () => {
      const operation = findOperation(busySim, unfinished, busy);
      // The CLI's second GET of the operation waits in the simulator while its clock moves a day on:
      // the first answer said unfinished, so the CLI must have polled again to see the end.
      let polls = 0;
      const secondPoll = busySim.holdRequests(
        (request) => request.path === `/async/operations/${String(operation?.id)}` && ++polls === 2,
      );
      const run = runCli(["operation", "get", String(operation?.id), "--wait", "--timeout", "60", "--json"], {
        env: busyEnv,
      });
      try {
        await whileRunning(secondPoll.reached, run, "it polled the operation again");
        busySim.clock.advance(86_400_000);
      } finally {
        secondPoll.release();
      }
      const result = await run;
      const finished = JSON.parse(result.stdout) as { status: string };
      expect(["completed", "failed"]).toContain(finished.status);
      expect(result.code).toBe(finished.status === "completed" ? 0 : 5);
      expect(result.stderr).toMatch(/polling again/);
    });
  });

  test("a missing token, plain http to a remote host, and a bad base URL are clear usage errors", async () => {
    const id = "00000000-0000-4000-8000-000000000000";
    const noToken = await runCli(["operation", "get", id], { env: { ZOO_HOST: sim.url } });
    expect(noToken.code).toBe(2);
    expect(noToken.stderr).toMatch(/ZOO_API_TOKEN/);
    const insecure = await runCli(["operation", "get", id, "--base-url", "http://example.com"], { env });
    expect(insecure.code).toBe(2);
    expect(insecure.stderr).toMatch(/plain http/);
    const badUrl = await runCli(["operation", "get", id, "--base-url", "not a url"], { env });
    expect(badUrl.code).toBe(2);
    expect(badUrl.stderr).toMatch(/not a valid URL/);
    for (const result of [noToken, insecure, badUrl]) expect(result.stderr).not.toContain(env.ZOO_API_TOKEN);
  });
});
