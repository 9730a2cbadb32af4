import type { ServerResponse } from "node:http";
import { expect, test } from "vitest";
import { createClient } from "../../src/api/createClient.js";
import { clientSettings, loadApiConfig } from "../../src/config/apiConfig.js";
import { ZooUsageError } from "../../src/errors.js";
import { createLogger } from "../../src/log/logger.js";
import { runCli, testStop } from "../helpers/cli.js";
import { errorBody, pageBody, resourcesPerTest, sendJson, validCall } from "../helpers/hostileApi.js";

/**
 * Time limits hold whatever the API does: a body trickled a byte at a time cannot outlast
 * --request-timeout, SIGINT/SIGTERM end a run while a request or a Retry-After wait is pending, and
 * the retry budget is wall time shared by concurrent fetches. The CLI runs in-process: a stop is
 * sent to it as the process's first SIGINT or SIGTERM would (test/e2e/ sends real signals).
 */
const { hostile, workspace: newWorkspace } = resourcesPerTest();

/**
 * A 200 whose body would take over a minute: one byte every 200 ms. Told when the first byte is out
 * and, when the client hangs up, how many bytes it got.
 */
function trickle(
  res: ServerResponse,
  on: { firstByte?: () => void; closed?: (bytesSent: number, bodyLength: number) => void },
): void {
  const body = pageBody([validCall(1)], null);
  res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
  let sent = 0;
  const timer = setInterval(() => {
    if (sent >= body.length) return;
    res.write(body[sent++]);
    if (sent === 1) on.firstByte?.();
  }, 200);
  res.on("close", () => {
    clearInterval(timer);
    on.closed?.(sent, body.length);
  });
}

test("--request-timeout bounds the whole body: a trickled body is abandoned and retried", async () => {
  const closedAfter: number[] = [];
  const api = await hostile((_, res) => trickle(res, { closed: (sent) => closedAfter.push(sent) }));
  const logs: string[] = [];
  const config = loadApiConfig({
    flags: { baseUrl: api.url, requestTimeout: 0.5, maxAttempts: 2 },
    env: { ZOO_API_TOKEN: "t-0123456789" },
  });
  const client = createClient(clientSettings(config), {
    logger: createLogger({ level: "debug", write: (line) => logs.push(line) }),
    sleep: async () => undefined,
  });
  const error = await client.listApiCalls({ limit: 10 }).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  await client.close();
  expect(error).toBeInstanceOf(ZooUsageError);
  expect((error as ZooUsageError).code).toBe("api.retries_exhausted");
  expect((error as ZooUsageError).message).toMatch(/timed out: no complete response within 0\.5 s/);
  expect(api.requests).toHaveLength(2);
  // Both bodies were cut off by the client, a few bytes in (each would take ~20 s to send).
  await expect.poll(() => closedAfter.length).toBe(2);
  for (const sent of closedAfter) expect(sent).toBeLessThan(10);
});

test.each([
  ["SIGTERM", "a 429 with Retry-After: 600"],
  ["SIGINT", "a 429 with Retry-After: 600"],
  ["SIGTERM", "a trickled body"],
] as const)("%s during %s: the run stops without waiting for it, with exit 130", async (signal, what) => {
  // Resolved once the stand-in has sent the 429 in full, or the first byte of the trickled body.
  const requested: ((value: unknown) => void)[] = [];
  const pending = new Promise((resolve) => requested.push(resolve));
  /** Bytes of the trickled body sent when the client hung up, against the whole body's length. */
  const hungUp: Array<{ sent: number; length: number }> = [];
  const api = await hostile((_, res) => {
    if (what === "a trickled body") {
      trickle(res, {
        firstByte: () => requested[0]?.(undefined),
        closed: (sent, length) => hungUp.push({ sent, length }),
      });
    } else {
      // Longer than the test's time limit: a run that waited it out would fail here.
      res.setHeader("retry-after", "600");
      res.once("finish", () => requested[0]?.(undefined));
      sendJson(res, 429, errorBody(429, "slow down"));
    }
  });
  const workspace = await newWorkspace();
  let signalled = false;
  const stop = testStop();
  void pending.then(() => {
    signalled = true;
    stop.send(signal);
  });
  const result = await runCli(
    ["export", "--db", workspace.db, "--out", workspace.out, "--no-operations", "--json"],
    { env: { ZOO_API_TOKEN: "t-0123456789", ZOO_HOST: api.url }, stop },
  );
  expect(result.code, result.stderr).toBe(130);
  expect(signalled).toBe(true);
  // It stopped without waiting: the retry was never sent, or the body never finished arriving
  // (events, not a stopwatch, so that a busy machine changes nothing; the test's time limit
  // catches a wait).
  if (what === "a trickled body") {
    await expect.poll(() => hungUp.length).toBe(1);
    expect(hungUp[0]?.sent).toBeLessThan(hungUp[0]?.length ?? 0);
  } else {
    expect(api.requests).toHaveLength(1);
  }
  expect(JSON.parse(result.stdout)).toMatchObject({ status: "interrupted", pages: 0 });
  expect(result.stderr).toMatch(new RegExp(`${signal}: stopping`));
});

test("the retry budget is wall time: concurrent fetches waiting together spend it once", async () => {
  const calls = Array.from({ length: 8 }, (_, i) => validCall(i + 1));
  const api = await hostile((request, res) => {
    if (request.path === "/user/api-calls") {
      sendJson(res, 200, pageBody(calls, null));
      return;
    }
    // Only the operations are busy: the retry budget is theirs to spend.
    if (!request.path.startsWith("/async/operations/"))
      return sendJson(res, 404, errorBody(404, "not found"));
    res.setHeader("retry-after", "1");
    sendJson(res, 503, errorBody(503, "busy"));
  });
  const workspace = await newWorkspace();
  const result = await runCli(
    [
      "export",
      "--db",
      workspace.db,
      "--out",
      workspace.out,
      "--operations-concurrency",
      "8",
      "--operations",
      "all",
      "--max-attempts",
      "50",
      "--max-retry-wait",
      "2.5",
      "--json",
    ],
    { env: { ZOO_API_TOKEN: "t-0123456789", ZOO_HOST: api.url } },
  );
  expect(result.code, result.stderr).toBe(4);
  const summary = JSON.parse(result.stdout) as { status: string; message: string };
  expect(summary.status).toBe("partial");
  // The message cites the wall time waited, at most the budget.
  expect(summary.message).toMatch(/retry budget: it has waited 2(\.\d)? s of 2\.5 s/);
  // The pace starts at 4 in flight. Counted as a sum, 4 waits of 1 s would spend a 2.5 s budget in
  // the first round (~6 requests); counted in wall time, each fetch gets two retries (3 rounds of 4).
  const operationRequests = api.requests.filter((r) => r.path.startsWith("/async/operations/")).length;
  expect(operationRequests).toBeGreaterThanOrEqual(10);
  // Retry warnings: a few in full, then one summary line with the counts.
  const retryLines = result.stderr.split("\n").filter((line) => /; retry \d+\/\d+ in/.test(line));
  expect(retryLines.length).toBeLessThanOrEqual(5);
  expect(result.stderr).toMatch(/retried \d+ times in all \(\d+ not logged\): HTTP 503 x\d+/);
});

test("SIGTERM while a page is retried: no request leaves after the signal", async () => {
  // Page 1 answers at once; the read-ahead of page 2 gets 503s: it must not keep retrying once stopped.
  let signalled = false;
  let requestsAfterSignal = 0;
  const requested: ((value: unknown) => void)[] = [];
  const secondPageAsked = new Promise((resolve) => requested.push(resolve));
  const api = await hostile((request, res) => {
    if (signalled) requestsAfterSignal += 1;
    if (request.query.get("page_token") === null) {
      sendJson(res, 200, pageBody([validCall(1)], "p1"));
      return;
    }
    requested[0]?.(undefined);
    res.setHeader("retry-after", "1");
    sendJson(res, 503, errorBody(503, "busy"));
  });
  const workspace = await newWorkspace();
  const stop = testStop();
  void secondPageAsked.then(() => {
    signalled = true;
    stop.send("SIGTERM");
  });
  const result = await runCli(
    ["export", "--db", workspace.db, "--out", workspace.out, "--no-operations", "--json"],
    { env: { ZOO_API_TOKEN: "t-0123456789", ZOO_HOST: api.url }, stop },
  );
  expect(result.code, result.stderr).toBe(130);
  expect(requestsAfterSignal).toBe(0);
});
