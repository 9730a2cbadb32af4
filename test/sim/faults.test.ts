import { request } from "node:http";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { type RunningSimulator, startSimulator } from "../../src/sim/index.js";
import { type ErrorBody, get, must, UUID } from "./helpers.js";

let sim: RunningSimulator;
let token: string;

beforeAll(async () => {
  sim = await startSimulator({ seed: 1, calls: 2000, users: 1 });
  token = must(sim.users[0]).token;
});
afterEach(() => {
  sim.setFaults({});
  sim.stats.reset();
});
afterAll(async () => {
  await sim.close();
});

/** One request over a fresh connection, reporting a socket error instead of throwing. */
function rawGet(
  path: string,
): Promise<{ status?: number; headers?: Record<string, unknown>; body?: string; error?: Error }> {
  const url = new URL(path, sim.url);
  return new Promise((resolve) => {
    const req = request(url, { headers: { authorization: `Bearer ${token}` }, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () =>
        resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks).toString() }),
      );
      res.on("error", (error) => resolve({ status: res.statusCode, headers: res.headers, error }));
    });
    req.on("error", (error) => resolve({ error }));
    req.end();
  });
}

describe("fault injection", () => {
  test("429 with Retry-After in seconds", async () => {
    sim.setFaults({ rate429: 1, retryAfterSeconds: 3 });
    const response = await get<ErrorBody>(sim, "/user/api-calls?limit=5", token);
    expect(response.status).toBe(429);
    expect(response.headers.get("retry-after")).toBe("3");
    expect(response.body.request_id).toBe(response.headers.get("x-request-id"));
    expect(sim.stats.faultsInjected["429"]).toBe(1);
  });

  test("429 with Retry-After as an HTTP date", async () => {
    sim.setFaults({ rate429: 1, retryAfterSeconds: 2, retryAfterAsDate: true });
    // Bracketed by the clock before and after the request, so a slow answer changes nothing; the
    // date is rounded up to a whole second.
    const before = Date.now();
    const response = await get(sim, "/user/api-calls?limit=5", token);
    const after = Date.now();
    expect(response.status).toBe(429);
    const when = Date.parse(response.headers.get("retry-after") ?? "");
    expect(when).toBeGreaterThanOrEqual(before + 2000);
    expect(when).toBeLessThan(after + 3000);
  });

  test("5xx with a generic error body", async () => {
    sim.setFaults({ rate5xx: 1, faultSeed: 99 });
    const statuses = new Set<number>();
    for (let k = 0; k < 30; k++) {
      const response = await get<ErrorBody>(sim, "/user/api-calls?limit=5", token);
      statuses.add(response.status);
      expect(response.headers.get("x-request-id")).toMatch(UUID);
      expect(response.body.request_id).toBe(response.headers.get("x-request-id"));
    }
    expect([...statuses].sort()).toEqual([500, 502, 503]);
    const injected = sim.stats.faultsInjected;
    expect((injected["500"] ?? 0) + (injected["502"] ?? 0) + (injected["503"] ?? 0)).toBe(30);
  });

  test("connection reset: the socket closes without a response", async () => {
    sim.setFaults({ rateReset: 1 });
    const result = await rawGet("/user/api-calls?limit=5");
    expect(result.status).toBeUndefined();
    expect(result.error).toBeDefined();
    expect(sim.stats.faultsInjected.reset).toBe(1);
  });

  test("truncated body: a 200 whose body stops halfway", async () => {
    sim.setFaults({ rateTruncated: 1 });
    const result = await rawGet("/user/api-calls?limit=50");
    expect(result.status).toBe(200);
    const declared = Number(result.headers?.["content-length"]);
    expect(declared).toBeGreaterThan(1000);
    // Either the client notices the short read (error) or we got fewer bytes than declared.
    const received = Buffer.byteLength(result.body ?? "");
    expect(result.error !== undefined || received < declared).toBe(true);
    expect(() => JSON.parse(result.body ?? "")).toThrow();
    await expect(
      fetch(`${sim.url}/user/api-calls?limit=50`, { headers: { authorization: `Bearer ${token}` } }).then(
        (r) => r.json(),
      ),
    ).rejects.toThrow();
  });

  test("latency is added before the response", async () => {
    sim.setFaults({ latencyMs: 150 });
    const started = performance.now();
    expect((await get(sim, "/user/api-calls?limit=1", token)).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
  });

  test("faults are reproducible from faultSeed and never touch /_sim/*", async () => {
    const draw = async () => {
      sim.setFaults({ rate429: 0.5, faultSeed: 7 });
      const statuses: number[] = [];
      for (let k = 0; k < 20; k++) statuses.push((await get(sim, "/user/api-calls?limit=1", token)).status);
      return statuses;
    };
    const first = await draw();
    expect(first).toContain(429);
    expect(first).toContain(200);
    expect(await draw()).toEqual(first);
    sim.setFaults({ rate429: 1 });
    expect((await get(sim, "/_sim/stats")).status).toBe(200);
  });
});

describe("control endpoints (simulator-only, not part of the Zoo API)", () => {
  test("clock, stats, faults and users over HTTP", async () => {
    const post = (path: string, body: unknown) =>
      fetch(`${sim.url}${path}`, { method: "POST", body: JSON.stringify(body) }).then(async (r) => ({
        status: r.status,
        body: await r.json(),
      }));
    const before = sim.clock.now().getTime();
    expect((await post("/_sim/clock", { advance_ms: 60_000 })).body).toEqual({
      now: new Date(before + 60_000).toISOString(),
    });
    expect((await post("/_sim/clock", { now: new Date(before).toISOString() })).status).toBe(400); // backwards
    expect((await post("/_sim/clock", { now: new Date(before + 120_000).toISOString() })).status).toBe(200);

    await get(sim, "/user/api-calls?limit=1", token);
    await get(sim, "/async/operations/00000000-0000-4000-8000-000000000000", token);
    const stats = (await get<{ requests: number; byPath: Record<string, number> }>(sim, "/_sim/stats")).body;
    expect(stats.requests).toBe(2);
    expect(stats.byPath).toEqual({ "/user/api-calls": 1, "/async/operations/{id}": 1 });

    expect((await post("/_sim/faults", { rate429: 1 })).status).toBe(200);
    expect((await get(sim, "/user/api-calls?limit=1", token)).status).toBe(429);
    expect((await post("/_sim/faults", { rate429: 2 })).status).toBe(400);
    expect((await post("/_sim/faults", { bogus: 1 })).status).toBe(400);
    await post("/_sim/faults", {});

    const users = (await get<Array<{ token: string }>>(sim, "/_sim/users")).body;
    expect(users.map((u) => u.token)).toEqual(sim.users.map((u) => u.token));
  });
});
