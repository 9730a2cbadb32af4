import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import type { ZooClient } from "../../src/api/client.js";
import { createClient } from "../../src/api/createClient.js";
import { clientSettings, loadApiConfig } from "../../src/config/apiConfig.js";
import { ZooUsageError } from "../../src/errors.js";
import { createLogger } from "../../src/log/logger.js";
import { type RunningSimulator, startSimulator } from "../../src/sim/index.js";

/** The client against the simulator over real HTTP; sleeps are recorded, not waited. */
function clientFor(
  sim: RunningSimulator,
  options: { maxAttempts?: number; maxRetryWait?: number; token?: string } = {},
) {
  const sleeps: number[] = [];
  const logs: string[] = [];
  // A clock that a sleep moves on, as a real wait would: the retry budget is counted in wall time.
  let clock = Date.now();
  const config = loadApiConfig({
    flags: {
      baseUrl: sim.url,
      maxAttempts: options.maxAttempts ?? 6,
      maxRetryWait: options.maxRetryWait ?? 600,
    },
    env: { ZOO_API_TOKEN: options.token ?? sim.users[0]?.token },
  });
  const client = createClient(clientSettings(config), {
    logger: createLogger({ level: "debug", write: (line) => logs.push(line) }),
    now: () => clock,
    sleep: async (ms) => {
      sleeps.push(ms);
      clock += ms;
    },
    random: () => 0.5,
  });
  return { client, sleeps, logs };
}

async function failureOf(promise: Promise<unknown>): Promise<ZooUsageError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ZooUsageError) return error;
    throw error;
  }
  throw new Error("expected a failure");
}

async function drain(client: ZooClient, limit: number): Promise<number> {
  let token: string | null = null;
  let count = 0;
  do {
    const page = await client.listApiCalls({ limit, pageToken: token });
    count += page.items.length;
    token = page.nextPage;
  } while (token !== null);
  return count;
}

describe("ZooClient against the simulator", () => {
  let sim: RunningSimulator;
  let total: number;

  beforeAll(async () => {
    sim = await startSimulator({
      seed: 3,
      calls: 1500,
      days: 10,
      users: 2,
      firstUserToken: "zoo-test-token-0123456789abcdef",
    });
    const { client } = clientFor(sim);
    total = await drain(client, 1000);
    await client.close();
  });
  beforeEach(() => sim.setFaults({}));
  afterAll(() => sim.close());

  test("pages through every call: 200 a page reads as many as 1000 a page", async () => {
    const { client } = clientFor(sim);
    expect(await drain(client, 200)).toBe(total);
    expect(total).toBeGreaterThan(100);
    await client.close();
  });

  test.each([
    ["429 with Retry-After", { rate429: 0.3, retryAfterSeconds: 2 }],
    ["5xx", { rate5xx: 0.3 }],
    ["connection resets", { rateReset: 0.3 }],
    ["truncated bodies", { rateTruncated: 0.3 }],
    ["all at once", { rate429: 0.1, rate5xx: 0.1, rateReset: 0.1, rateTruncated: 0.1, latencyMs: 5 }],
  ])("survives %s", async (_, faults) => {
    sim.setFaults({ ...faults, faultSeed: 11 });
    const { client } = clientFor(sim, { maxAttempts: 12 });
    expect(await drain(client, 100)).toBe(total);
    expect(client.stats.retries).toBeGreaterThan(0);
    await client.close();
  });

  test("never retries a 429 before its Retry-After", async () => {
    sim.setFaults({ rate429: 1, retryAfterSeconds: 3 });
    const { client, sleeps } = clientFor(sim, { maxAttempts: 4 });
    const error = await failureOf(client.listApiCalls({ limit: 10 }));
    expect(error.code).toBe("api.retries_exhausted");
    expect(error.status).toBe(429);
    expect(sleeps).toHaveLength(3);
    for (const ms of sleeps) expect(ms).toBeGreaterThanOrEqual(3000);
    await client.close();
  });

  test("obeys Retry-After given as an HTTP date", async () => {
    sim.setFaults({ rate429: 1, retryAfterSeconds: 5, retryAfterAsDate: true });
    const { client, sleeps } = clientFor(sim, { maxAttempts: 2 });
    await failureOf(client.listApiCalls({ limit: 10 }));
    // An HTTP date has one-second resolution: the wait is at least 4 s after rounding down.
    expect(sleeps[0]).toBeGreaterThanOrEqual(4000);
    await client.close();
  });

  test("stops when the run's retry budget is spent", async () => {
    sim.setFaults({ rate5xx: 1 });
    const { client, sleeps } = clientFor(sim, { maxAttempts: 100, maxRetryWait: 1 });
    const error = await failureOf(client.listApiCalls({ limit: 10 }));
    expect(error.code).toBe("api.retries_exhausted");
    expect(error.message).toMatch(/retry budget/);
    expect(sleeps.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(1000);
    await client.close();
  });

  test("a wrong token fails at once with a hint about ZOO_API_TOKEN, and never shows the token", async () => {
    const token = "zoo-wrong-token-fedcba9876543210";
    const { client, sleeps, logs } = clientFor(sim, { token });
    const error = await failureOf(client.listApiCalls({ limit: 10 }));
    expect(error.code).toBe("api.unauthorized");
    expect(error.status).toBe(401);
    expect(error.hint).toMatch(/ZOO_API_TOKEN/);
    expect(error.message).toMatch(/GET \/user\/api-calls.*401.*request id [0-9a-f-]{36}/);
    expect(sleeps).toHaveLength(0);
    expect(`${error.message} ${error.hint} ${logs.join("\n")}`).not.toContain(token);
    await client.close();
  });

  test("another user's operation is a 404 with a hint, a malformed id a usage error", async () => {
    const other = clientFor(sim, { token: sim.users[1]?.token });
    let operationId: string | undefined;
    let token: string | null = null;
    do {
      const page = await other.client.listApiCalls({ limit: 500, pageToken: token });
      operationId ??= (
        [...page.items] as { id: string; method: string; endpoint?: string; status_code?: number }[]
      ).find(
        (call) =>
          call.method === "POST" && call.endpoint?.startsWith("/file/") && (call.status_code ?? 0) < 300,
      )?.id;
      token = page.nextPage;
    } while (token !== null && operationId === undefined);
    expect(operationId).toBeDefined();
    expect((await other.client.getAsyncOperation(operationId ?? "")).type).toBeTruthy();
    const { client } = clientFor(sim);
    const error = await failureOf(client.getAsyncOperation(operationId ?? ""));
    expect(error.code).toBe("api.not_found");
    expect(error.hint).toMatch(/another user/);
    expect((await failureOf(client.getAsyncOperation("not-a-uuid"))).code).toBe("config.invalid");
    await client.close();
    await other.client.close();
  });

  test("page tokens never appear in full in retry logs or errors", async () => {
    const { client: first } = clientFor(sim);
    const page = await first.listApiCalls({ limit: 10 });
    await first.close();
    const pageToken = page.nextPage ?? "";
    expect(pageToken.length).toBeGreaterThan(20);
    sim.setFaults({ rate5xx: 1 });
    const { client, logs } = clientFor(sim, { maxAttempts: 2 });
    const error = await failureOf(client.listApiCalls({ limit: 10, pageToken }));
    expect(error.message).toContain("page_token=");
    expect(`${error.message}\n${logs.join("\n")}`).not.toContain(pageToken);
    await client.close();
  });
});
