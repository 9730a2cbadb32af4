import { afterAll, beforeAll, expect, test } from "vitest";
import { type RunningSimulator, startSimulator } from "../../src/sim/index.js";
import { get, listPage, must, type Page } from "./helpers.js";

/** The test hook `holdRequests`: held requests are answered only once the gate is released. */
let sim: RunningSimulator;
let token: string;
beforeAll(async () => {
  sim = await startSimulator({ seed: 3, calls: 500, users: 1 });
  token = must(sim.users[0]).token;
});
afterAll(() => sim.close());

test("a count lets that many requests through and holds the next ones until released", async () => {
  const gate = sim.holdRequests(2);
  await listPage(sim, token, "limit=10");
  await listPage(sim, token, "limit=10");
  const answered: number[] = [];
  const third = listPage(sim, token, "limit=10").then((page) => answered.push(page.items.length));
  const fourth = listPage(sim, token, "limit=20").then((page) => answered.push(page.items.length));
  await gate.reached;
  // Control requests are never held: the simulator still answers while API requests wait.
  expect((await get<{ requests: number }>(sim, "/_sim/stats")).status).toBe(200);
  expect(answered).toEqual([]);
  gate.release();
  await Promise.all([third, fourth]);
  expect(answered.sort()).toEqual([10, 20]);
  expect(gate.held).toBe(2);
  // Released for good: later requests pass.
  expect((await listPage(sim, token, "limit=5")).items).toHaveLength(5);
});

test("a predicate holds only the requests it matches; others are answered meanwhile", async () => {
  const gate = sim.holdRequests(({ query }) => query.has("page_token"));
  const first = await listPage(sim, token, "limit=50&sort_by=created_at_ascending");
  let held: Page | undefined;
  const next = listPage(sim, token, `limit=50&page_token=${must(first.next_page)}`).then((page) => {
    held = page;
  });
  await gate.reached;
  expect((await listPage(sim, token, "limit=1")).items).toHaveLength(1);
  expect(held).toBeUndefined();
  gate.release();
  await next;
  expect(must(held).items).toHaveLength(50);
  expect(gate.held).toBe(1);
});
