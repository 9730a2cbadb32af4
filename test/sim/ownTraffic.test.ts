import { afterEach, describe, expect, test } from "vitest";
import { type RunningSimulator, startSimulator } from "../../src/sim/index.js";
import { listPage, scan } from "./helpers.js";

const AGENT = "zoo-usage-test/1.0 (+zoo-usage)";

describe("the simulator's own traffic", () => {
  let sim: RunningSimulator | undefined;
  afterEach(async () => {
    await sim?.close();
    sim = undefined;
  });

  async function request(path: string, token: string): Promise<Response> {
    const target = sim as RunningSimulator;
    return fetch(`${target.url}${path}`, {
      headers: { authorization: `Bearer ${token}`, "user-agent": AGENT },
      signal: AbortSignal.timeout(5000),
    });
  }

  test("a served request is listed as a call once the clock has moved, under its x-api-call-id", async () => {
    sim = await startSimulator({ seed: 4, calls: 300, users: 2, recordOwnTraffic: true });
    const token = sim.users[0]?.token as string;
    const before = await scan(sim, token, { limit: 1000 });

    const listing = await request("/user/api-calls?limit=5&sort_by=created_at_ascending", token);
    const listingId = listing.headers.get("x-api-call-id");
    await listing.arrayBuffer();
    const missing = await request("/async/operations/00000000-0000-4000-8000-000000000000", token);
    const missingId = missing.headers.get("x-api-call-id");
    await missing.arrayBuffer();
    expect(missing.status).toBe(404);

    // Not yet listed at the moment it was made: a scan would otherwise chase its own tail.
    const same = await listPage(sim, token, "limit=1000&sort_by=created_at_descending");
    expect(same.items.map((c) => c.id)).not.toContain(listingId);

    sim.clock.advance(1000);
    const after = await scan(sim, token, { limit: 7 });
    const byId = new Map(after.items.map((c) => [c.id, c]));
    const own = byId.get(listingId as string);
    expect(own).toMatchObject({
      method: "GET",
      endpoint: "/user/api-calls",
      request_query_params: "limit=5&sort_by=created_at_ascending",
      status_code: 200,
      user_agent: AGENT,
      price: 0,
      user_id: sim.users[0]?.id,
    });
    expect(byId.get(missingId as string)).toMatchObject({
      endpoint: "/async/operations/00000000-0000-4000-8000-000000000000",
      status_code: 404,
    });
    // Everything listed before is still there, plus the requests made since (the scans included).
    expect(after.items.length).toBeGreaterThan(before.items.length + 2);
    expect(new Set(after.items.map((c) => c.id)).size).toBe(after.items.length);
    const keys = after.items.map((c) => `${c.created_at} ${c.id}`);
    expect([...keys].sort()).toEqual(keys);
  });

  test("descending pages hold the same calls as ascending ones, and other users see none of them", async () => {
    sim = await startSimulator({ seed: 9, calls: 200, users: 2, recordOwnTraffic: true });
    const [first, second] = sim.users.map((u) => u.token) as [string, string];
    const othersBefore = await scan(sim, second, { limit: 1000 });
    for (let k = 0; k < 5; k++) await (await request("/user/api-calls?limit=3", first)).arrayBuffer();
    sim.clock.advance(1);
    const ascending = await scan(sim, first, { limit: 4 });
    const descending = await scan(sim, first, { limit: 3, order: "created_at_descending" });
    expect(descending.items.map((c) => c.id).reverse()).toEqual(ascending.items.map((c) => c.id));
    expect(ascending.items.filter((c) => c.user_agent === AGENT)).toHaveLength(5);
    // The second user's own scan is recorded as its calls, never as the first user's.
    const othersAfter = await scan(sim, second, { limit: 1000 });
    expect(othersAfter.items.filter((c) => c.user_agent === AGENT)).toHaveLength(0);
    expect(othersAfter.items.length).toBe(othersBefore.items.length + othersBefore.requests);
  });

  test("pages at any limit, either order, hold each call once across runs of tied created_at", async () => {
    sim = await startSimulator({ seed: 12, calls: 40, days: 1, users: 1, recordOwnTraffic: true });
    const token = sim.users[0]?.token as string;
    // Two bursts of requests, each at one moment of the frozen clock: 30 and 20 calls with equal created_at.
    for (const burst of [30, 20]) {
      for (let k = 0; k < burst; k++) await (await request("/user/api-calls?limit=1", token)).arrayBuffer();
      sim.clock.advance(1);
    }
    // Scans record calls too, but at the present moment: none of them is listed by the scans that follow.
    const reference = await scan(sim, token, { limit: 1000 });
    expect(reference.items.filter((c) => c.user_agent === AGENT)).toHaveLength(50);
    const ids = reference.items.map((c) => c.id);
    for (const limit of [1, 2, 3, 7, 29, 30, 31]) {
      const ascending = await scan(sim, token, { limit });
      expect(
        ascending.items.map((c) => c.id),
        `ascending, limit ${limit}`,
      ).toEqual(ids);
      const descending = await scan(sim, token, { limit, order: "created_at_descending" });
      expect(descending.items.map((c) => c.id).reverse(), `descending, limit ${limit}`).toEqual(ids);
    }
  });

  test("without recordOwnTraffic no request becomes a call", async () => {
    sim = await startSimulator({ seed: 4, calls: 100 });
    const token = sim.users[0]?.token as string;
    const response = await request("/user/api-calls?limit=10", token);
    const id = response.headers.get("x-api-call-id");
    await response.arrayBuffer();
    expect(id).not.toBeNull();
    sim.clock.advance(1000);
    const after = await scan(sim, token, { limit: 10 });
    expect(after.items.map((c) => c.id)).not.toContain(id);
    expect(after.items.filter((c) => c.user_agent === AGENT)).toHaveLength(0);
  });
});
