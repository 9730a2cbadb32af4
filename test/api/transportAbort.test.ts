import { afterEach, expect, test } from "vitest";
import { createClient } from "../../src/api/createClient.js";
import { RetryLog } from "../../src/api/retryLog.js";
import { clientSettings, loadApiConfig } from "../../src/config/apiConfig.js";
import { ZooUsageError } from "../../src/errors.js";
import { createLogger, silentLogger } from "../../src/log/logger.js";
import { errorBody, type HostileApi, sendJson, startHostileApi } from "../helpers/hostileApi.js";

/**
 * Requests and retry waits end when their caller lets go: the run's signal, the page's own, or close().
 * A test's 30 s timeout is half the Retry-After: a wait that was not cut fails it, on any machine.
 */
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function hostile(handler: Parameters<typeof startHostileApi>[0]): Promise<HostileApi> {
  const api = await startHostileApi(handler);
  cleanups.push(() => api.close());
  return api;
}

function clientFor(api: HostileApi, signal?: AbortSignal) {
  const config = loadApiConfig({ flags: { baseUrl: api.url }, env: { ZOO_API_TOKEN: "t-0123456789" } });
  // The production sleep: a Retry-After: 60 wait really is a minute unless it is aborted.
  return createClient(clientSettings(config), { logger: silentLogger, signal });
}

async function failureOf(promise: Promise<unknown>): Promise<ZooUsageError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ZooUsageError);
  return error as ZooUsageError;
}

function retryAfter60(): (request: unknown, res: Parameters<typeof sendJson>[0]) => void {
  return (_, res) => {
    res.setHeader("retry-after", "60");
    sendJson(res, 429, errorBody(429, "slow down"));
  };
}

test("the run's signal ends a Retry-After: 60 wait at once, with no further request", async () => {
  const api = await hostile(retryAfter60());
  const run = new AbortController();
  const client = clientFor(api, run.signal);
  cleanups.push(() => client.close());
  const page = client.listApiCalls({ limit: 10 });
  // Counted as a retry: the client is now in its 60 s wait.
  await expect.poll(() => client.stats.retries).toBe(1);
  run.abort();
  const error = await failureOf(page);
  expect(error.code).toBe("api.interrupted");
  expect(error.exitCode).toBe(130);
  expect(api.requests).toHaveLength(1);
}, 30_000);

test("a page's own signal abandons it (a dropped read-ahead) without stopping the client", async () => {
  const api = await hostile(retryAfter60());
  const client = clientFor(api);
  cleanups.push(() => client.close());
  const dropped = new AbortController();
  const page = client.listApiCalls({ limit: 10, signal: dropped.signal });
  await expect.poll(() => client.stats.retries).toBe(1);
  dropped.abort();
  expect((await failureOf(page)).code).toBe("api.interrupted");
  expect(api.requests).toHaveLength(1);
}, 30_000);

test("close() abandons a request nobody awaits any more", async () => {
  const api = await hostile(() => undefined); // accepts, never answers
  const client = clientFor(api);
  const failure = failureOf(client.listApiCalls({ limit: 10 }));
  await expect.poll(() => api.requests.length).toBe(1);
  await client.close();
  expect((await failure).code).toBe("api.interrupted");
}, 30_000);

test("RetryLog: the first five retries in full, then counts per cause in one summary line", () => {
  const lines: string[] = [];
  const log = new RetryLog(createLogger({ level: "info", write: (line) => lines.push(line) }));
  expect(log.summary()).toBeUndefined();
  for (let i = 0; i < 10; i++) log.note("HTTP 429", `429 number ${i}`);
  log.note("api.network", "reset");
  log.note("api.network", "reset");
  expect(lines.filter((line) => / warn {2}429 number \d$/.test(line))).toHaveLength(5);
  expect(lines).toHaveLength(6);
  expect(lines[5]).toMatch(/further retries are counted and summarised at the end/);
  expect(log.summary()).toBe("retried 12 times in all (7 not logged): HTTP 429 x10, api.network x2");
});
