import { afterEach, describe, expect, test } from "vitest";
import { createClient } from "../../src/api/createClient.js";
import { ApiCallWithPriceSchema } from "../../src/api/schemas/index.js";
import { clientSettings, loadApiConfig } from "../../src/config/apiConfig.js";
import { silentLogger } from "../../src/log/logger.js";
import {
  type ApiCallRecord,
  createDataset,
  type RunningSimulator,
  startSimulator,
} from "../../src/sim/index.js";
import { type ErrorBody, get, listPage, micros, must } from "./helpers.js";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Longer than the longest simulated call (3 h) plus the on-time billing delay (30 min). */
const ON_TIME = 4 * HOUR;
const LATE = { share: 0.2, days: [3, 40] as const, monthEndShare: 0.3 };

let sim: RunningSimulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

/** Call i of the dataset at `ms` after its creation. */
function at(dataset: ReturnType<typeof createDataset>, i: number, ms: number): ApiCallRecord {
  return dataset.callAtMicros(i, dataset.createdAt(i) + ms * 1000);
}

describe("late billing in the simulated data", () => {
  test("a configured share settles days late or at month end, with updated_at moving then", () => {
    const dataset = createDataset({ seed: 3, calls: 4000, days: 60, users: 1, lateBilling: LATE });
    let late = 0;
    let monthEnd = 0;
    const n = 3000;
    for (let i = 0; i < n; i++) {
      if (at(dataset, i, ON_TIME).completed_at !== null) continue;
      late += 1;
      const pending = at(dataset, i, ON_TIME);
      expect(pending.price).toBeNull();
      expect(pending.stripe_invoice_item_id ?? "").toBe("");
      // Settled once the latest possible moment has passed: 40 days late, or the next month's start.
      const settled = at(dataset, i, 41 * DAY + ON_TIME);
      expect(settled.completed_at, `call ${i}`).not.toBeNull();
      const updatedMs = Date.parse(settled.updated_at);
      const createdMs = Date.parse(settled.created_at);
      expect(updatedMs).toBeGreaterThan(Date.parse(pending.updated_at));
      const atMonthStart = new Date(updatedMs).getUTCDate() === 1 && new Date(updatedMs).getUTCHours() < 6;
      if (atMonthStart) monthEnd += 1;
      else expect(updatedMs - createdMs, `call ${i} settles 3..40 days late`).toBeGreaterThanOrEqual(3 * DAY);
      // Just before it settles it is still pending; from then on, billed.
      const settledUs = micros(settled.updated_at);
      expect(dataset.callAtMicros(i, settledUs - 1).completed_at).toBeNull();
      expect(dataset.callAtMicros(i, settledUs).completed_at).not.toBeNull();
    }
    expect(late / n).toBeGreaterThan(0.16);
    expect(late / n).toBeLessThan(0.24);
    expect(monthEnd / late).toBeGreaterThan(0.2);
    expect(monthEnd / late).toBeLessThan(0.4);
  });

  test("the default data has a small share of late calls; share 0 bills every call on time", () => {
    const count = (options: Parameters<typeof createDataset>[0]) => {
      const dataset = createDataset(options);
      let pending = 0;
      for (let i = 0; i < 3000; i++) if (at(dataset, i, ON_TIME).completed_at === null) pending += 1;
      return pending / 3000;
    };
    const byDefault = count({ seed: 5, calls: 4000, users: 1 });
    expect(byDefault).toBeGreaterThan(0.03);
    expect(byDefault).toBeLessThan(0.07);
    expect(count({ seed: 5, calls: 4000, users: 1, lateBilling: { share: 0 } })).toBe(0);
  });

  test.each([
    [{ share: 1.5 }, /share/],
    [{ share: -0.1 }, /share/],
    [{ days: [10, 3] as const }, /days/],
    [{ monthEndShare: 2 }, /monthEndShare/],
  ])("invalid option %j is a RangeError", (lateBilling, message) => {
    expect(() => createDataset({ lateBilling })).toThrow(message);
  });
});

describe("GET /user/api-calls/{id}", () => {
  test("serves the listed record, billing filled in once it lands", async () => {
    sim = await startSimulator({ seed: 11, calls: 3000, days: 60, users: 2, lateBilling: LATE });
    const token = must(sim.users[0]).token;
    const listed = (await listPage(sim, token, "limit=300&sort_by=created_at_descending")).items;
    const settledBy = sim.clock.now().getTime() - ON_TIME;
    const recent = listed.filter((call) => Date.parse(call.created_at) < settledBy);
    const pending = must(
      recent.find((call) => call.completed_at === null),
      "a late-billed call",
    );
    const billed = must(
      recent.find((call) => call.completed_at !== null),
      "a billed call",
    );
    for (const call of [pending, billed]) {
      const one = await get<Record<string, unknown>>(sim, `/user/api-calls/${call.id}`, token);
      expect(one.status).toBe(200);
      expect(one.body).toEqual(call);
      expect(one.headers.get("x-api-call-id")).not.toBeNull();
    }
    // Upper-case ids name the same call.
    expect((await get(sim, `/user/api-calls/${pending.id.toUpperCase()}`, token)).status).toBe(200);

    sim.clock.advance(45 * DAY);
    const later = await get<Record<string, unknown>>(sim, `/user/api-calls/${pending.id}`, token);
    expect(later.body.completed_at).not.toBeNull();
    expect(later.body.updated_at).not.toBe(pending.updated_at);
    const relisted = (await listPage(sim, token, "limit=10000&sort_by=created_at_ascending")).items;
    expect(later.body).toEqual(relisted.find((call) => call.id === pending.id));
    expect(sim.stats.byPath["/user/api-calls/{id}"]).toBe(4);
  });

  test("another user's call and an unknown id are 404, a malformed id 400, no token 401", async () => {
    sim = await startSimulator({ seed: 11, calls: 2000, users: 2 });
    const [first, second] = [must(sim.users[0]), must(sim.users[1])];
    const theirs = must((await listPage(sim, second.token, "limit=1")).items[0]);
    const notMine = await get<ErrorBody>(sim, `/user/api-calls/${theirs.id}`, first.token);
    expect(notMine.status).toBe(404);
    expect(notMine.body.request_id).toBe(notMine.headers.get("x-request-id"));
    const unknown = await get<ErrorBody>(
      sim,
      "/user/api-calls/00000000-0000-4000-8000-000000000000",
      first.token,
    );
    expect(unknown.status).toBe(404);
    expect(notMine.body.message.replace(theirs.id, "ID")).toBe(
      unknown.body.message.replace("00000000-0000-4000-8000-000000000000", "ID"),
    );
    const malformed = await get<ErrorBody>(sim, "/user/api-calls/not-a-uuid", first.token);
    expect(malformed.status).toBe(400);
    expect(malformed.body.message).toMatch(/invalid UUID "not-a-uuid"/);
    expect((await get(sim, `/user/api-calls/${theirs.id}`)).status).toBe(401);
    const post = await fetch(`${sim.url}/user/api-calls/${theirs.id}`, {
      method: "POST",
      headers: { authorization: `Bearer ${second.token}` },
    });
    expect(post.status).toBe(405);
  });

  test("a call not listed yet is a 404 until it is", async () => {
    const options = { seed: 4, calls: 20_000, days: 20, users: 1 };
    const dataset = createDataset(options);
    let late = dataset.countCreated(dataset.initialNow);
    while (!dataset.timeline.isLate(late)) late++;
    sim = await startSimulator(options);
    const token = must(sim.users[0]).token;
    const id = dataset.idOf(late);
    sim.clock.set(new Date(Math.ceil(dataset.createdAt(late) / 1000) + 1));
    expect((await get(sim, `/user/api-calls/${id}`, token)).status).toBe(404);
    sim.clock.set(new Date(Math.ceil(dataset.timeline.visibleFrom(late) / 1000)));
    expect((await get(sim, `/user/api-calls/${id}`, token)).status).toBe(200);
  });
});

describe("the exporter's client reads one call", () => {
  test("getApiCall returns the record the spec's schema accepts; 404 and a malformed id are errors", async () => {
    sim = await startSimulator({ seed: 12, calls: 2000, users: 2, lateBilling: LATE });
    const [first, second] = [must(sim.users[0]), must(sim.users[1])];
    const config = loadApiConfig({
      flags: { baseUrl: sim.url, maxAttempts: 1 },
      env: { ZOO_API_TOKEN: first.token },
    });
    const client = createClient(clientSettings(config), { logger: silentLogger });
    try {
      const listed = (await listPage(sim, first.token, "limit=50")).items;
      for (const call of listed) {
        const { body, requestId } = await client.getApiCall(call.id);
        expect(body).toEqual(call);
        expect(requestId).toBeDefined();
        expect(ApiCallWithPriceSchema.safeParse(body).success, call.id).toBe(true);
      }
      const theirs = must((await listPage(sim, second.token, "limit=1")).items[0]);
      await expect(client.getApiCall(theirs.id)).rejects.toMatchObject({ code: "api.not_found" });
      await expect(client.getApiCall("../user")).rejects.toMatchObject({ code: "config.invalid" });
      expect(sim.stats.byPath["/user/api-calls/{id}"]).toBe(listed.length + 1);
    } finally {
      await client.close();
    }
  });
});
