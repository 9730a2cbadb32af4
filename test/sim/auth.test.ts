import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createDataset, type RunningSimulator, startSimulator } from "../../src/sim/index.js";
import { type ErrorBody, get, must, type Page, scan, UUID } from "./helpers.js";

const OPTIONS = { seed: 21, calls: 3000, users: 3, firstUserToken: "test-token-user-0" };
let sim: RunningSimulator;

beforeAll(async () => {
  sim = await startSimulator(OPTIONS);
});
afterAll(async () => {
  await sim.close();
});

describe("bearer auth", () => {
  test.each([
    ["no Authorization header", undefined],
    ["an unknown token", "not-a-real-token"],
  ])("%s is a 401 with an error body", async (_name, token) => {
    const response = await get<ErrorBody>(sim, "/user/api-calls?limit=1", token);
    expect(response.status).toBe(401);
    expect(response.body.message).toMatch(/^unauthorized/);
    expect(response.body.request_id).toBe(response.headers.get("x-request-id"));
    expect(response.headers.get("x-api-call-id")).toBeNull();
  });

  test("firstUserToken is user 0's token", async () => {
    expect(must(sim.users[0]).token).toBe("test-token-user-0");
    expect((await get(sim, "/user/api-calls?limit=1", "test-token-user-0")).status).toBe(200);
  });

  test("each user sees only their own calls, and every user has some", async () => {
    const seen = new Set<string>();
    for (const user of sim.users) {
      const { items } = await scan(sim, user.token, { limit: 5000 });
      expect(items.length).toBeGreaterThan(0);
      for (const item of items) {
        expect(item.user_id).toBe(user.id);
        expect(item.email).toBe(user.email);
        expect(item.org_id).toBe(user.orgId);
        expect(seen.has(item.id)).toBe(false);
        seen.add(item.id);
      }
    }
    const dataset = createDataset(OPTIONS);
    let visible = 0;
    for (let i = 0; i < dataset.countCreated(dataset.initialNow); i++)
      if (dataset.isVisible(i, dataset.initialNow)) visible++;
    expect(seen.size).toBe(visible);
    expect(sim.users.map((u) => u.orgId === null)).toContain(true);
    expect(sim.users.map((u) => u.orgId === null)).toContain(false);
  });

  test("another user's operation is a 404, like an unknown one", async () => {
    const dataset = createDataset(OPTIONS);
    const [owner, other] = sim.users;
    const call = must(
      [...dataset.visibleCallsForUser(0, dataset.initialNow)].find(
        (c) => dataset.operationFor(c.id, dataset.initialNow) !== undefined,
      ),
    );
    expect((await get(sim, `/async/operations/${call.id}`, must(owner).token)).status).toBe(200);
    const foreign = await get<ErrorBody>(sim, `/async/operations/${call.id}`, must(other).token);
    const unknown = await get<ErrorBody>(
      sim,
      "/async/operations/00000000-0000-4000-8000-000000000000",
      must(other).token,
    );
    expect(foreign.status).toBe(404);
    expect(unknown.status).toBe(404);
    // Same message shape: nothing tells the two apart.
    expect(foreign.body.message.replace(call.id, "ID")).toBe(
      unknown.body.message.replace(/[0-9a-f-]{36}/, "ID"),
    );
  });
});

describe("every response", () => {
  test("carries x-request-id; successes carry X-Api-Call-Id and JSON", async () => {
    const token = must(sim.users[0]).token;
    const ok = await get<Page>(sim, "/user/api-calls?limit=2", token);
    expect(ok.status).toBe(200);
    expect(ok.headers.get("x-request-id")).toMatch(UUID);
    expect(ok.headers.get("x-api-call-id")).toMatch(UUID);
    expect(ok.headers.get("content-type")).toBe("application/json");

    for (const [path, status] of [
      ["/nope", 404],
      ["/user/api-calls?limit=0", 400],
      ["/async/operations/not-a-uuid", 400],
    ] as const) {
      const response = await get<ErrorBody>(sim, path, token);
      expect(response.status, path).toBe(status);
      expect(response.headers.get("x-request-id")).toMatch(UUID);
      expect(response.headers.get("x-api-call-id")).toBeNull();
      expect(response.body.request_id).toBe(response.headers.get("x-request-id"));
      // error_code is omitted, not null, when there is none (spec: optional, not nullable); a 404
      // carries one, as Zoo's refusals do.
      const keys = status === 404 ? ["error_code", "message", "request_id"] : ["message", "request_id"];
      expect(Object.keys(response.body).sort()).toEqual(keys);
      if (status === 404) expect(response.body.error_code).toBe("ObjectNotFound");
    }
  });

  test("a wrong method on a known path is a 405", async () => {
    const response = await fetch(`${sim.url}/user/api-calls`, {
      method: "POST",
      headers: { authorization: `Bearer ${must(sim.users[0]).token}` },
    });
    expect(response.status).toBe(405);
    expect(response.headers.get("x-request-id")).toMatch(UUID);
    await response.body?.cancel();
  });
});
