import { afterAll, beforeAll, expect, test } from "vitest";
import { ASYNC_OPERATION_TYPES, AsyncOperationSchema } from "../../src/api/schemas/index.js";
import { type RunningSimulator, startSimulator } from "../../src/sim/index.js";
import { validOperation } from "../helpers/hostileApi.js";

let sim: RunningSimulator;
let bodies: Record<string, unknown>[];

/** Every operation body the simulator serves to one user, read off the wire as the client reads it. */
beforeAll(async () => {
  sim = await startSimulator({ seed: 3, calls: 1500, days: 5, users: 1 });
  const headers = { authorization: `Bearer ${sim.users[0]?.token ?? ""}` };
  const list = new URL("/user/api-calls", sim.url);
  list.searchParams.set("limit", "5000");
  const page = (await (await fetch(list, { headers })).json()) as { items: { id: string; method: string }[] };
  bodies = [];
  for (const call of page.items.filter((item) => item.method === "POST")) {
    const response = await fetch(new URL(`/async/operations/${call.id}`, sim.url), { headers });
    if (response.status === 200) bodies.push((await response.json()) as Record<string, unknown>);
    else await response.arrayBuffer();
  }
  bodies.push(validOperation(1));
});
afterAll(() => sim.close());

test("the schema accepts every body of every type, keeping every field", () => {
  expect(new Set(bodies.map((body) => body.type)).size).toBe(ASYNC_OPERATION_TYPES.length);
  for (const body of bodies) {
    const parsed = AsyncOperationSchema.safeParse(body);
    const where = JSON.stringify(body).slice(0, 2000);
    expect(parsed.success, where).toBe(true);
    expect(parsed.data, where).toStrictEqual(body);
  }
});
