import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createDataset, type RunningSimulator, startSimulator } from "../../src/sim/index.js";
import { type ErrorBody, get, must, UUID } from "./helpers.js";
import { operationProblems, VARIANTS } from "./operationSchema.js";

const OPTIONS = { seed: 13, calls: 4000, users: 2 };
const dataset = createDataset(OPTIONS);
const now = dataset.initialNow;
const calls = [...dataset.visibleCallsForUser(0, now)];
const operations = calls.flatMap((call) => {
  const op = dataset.operationFor(call.id, now);
  return op === undefined ? [] : [{ call, op }];
});
let sim: RunningSimulator;

beforeAll(async () => {
  sim = await startSimulator(OPTIONS);
});
afterAll(async () => {
  await sim.close();
});

/** The variant each endpoint starts; text-to-cad ones are legacy paths absent from the current spec. */
function expectedType(endpoint: string): string | undefined {
  if (endpoint === "/file/conversion" || endpoint.startsWith("/file/conversion/")) return "file_conversion";
  if (endpoint.startsWith("/ai/text-to-cad/")) return "text_to_cad";
  const table: Record<string, string> = {
    "/file/mass": "file_mass",
    "/file/volume": "file_volume",
    "/file/density": "file_density",
    "/file/surface-area": "file_surface_area",
    "/file/center-of-mass": "file_center_of_mass",
    "/ml/text-to-cad/iteration": "text_to_cad_iteration",
    "/ml/text-to-cad/multi-file/iteration": "text_to_cad_multi_file_iteration",
  };
  return table[endpoint];
}

describe("async operations (pure data layer)", () => {
  test("every successful POST of an async endpoint has an operation with the call's id and matching variant", () => {
    for (const call of calls) {
      const op = dataset.operationFor(call.id, now);
      const type = expectedType(call.endpoint);
      const started =
        type !== undefined &&
        call.method === "POST" &&
        Number(call.status_code) >= 200 &&
        Number(call.status_code) < 300;
      expect(op !== undefined, `${call.method} ${call.endpoint} ${call.status_code}`).toBe(started);
      if (op === undefined) continue;
      expect(op.id).toBe(call.id);
      expect(op.type).toBe(type);
      expect(op.user_id).toBe(call.user_id);
      expect(op.created_at).toBe(call.created_at);
      if (op.type === "file_conversion" && call.endpoint !== "/file/conversion")
        expect(call.endpoint).toBe(`/file/conversion/${op.src_format}/${op.output_format}`);
      if (op.type === "text_to_cad") expect(call.endpoint).toBe(`/ai/text-to-cad/${op.output_format}`);
      if (op.type === "file_mass") {
        expect(call.request_query_params).toContain(
          `output_unit=${op.output_unit}&material_density=${op.material_density}`,
        );
      }
    }
  });

  test("all 9 types appear and every operation is valid against the spec", () => {
    expect(new Set(operations.map(({ op }) => op.type))).toEqual(new Set(Object.keys(VARIANTS)));
    for (const { op } of operations) expect(operationProblems(op), `${op.type} ${op.id}`).toEqual([]);
  });

  test("every status appears over an operation's life; ~5% fail with an error", () => {
    const statuses = new Set<string>();
    const offsets = [0.05, 1, 5, 20, 60, 600, 3600, 86_400 * 3];
    for (const { call } of operations.slice(0, 300)) {
      const created = Date.parse(call.created_at);
      let previous = -1;
      for (const seconds of offsets) {
        const op = must(dataset.operationFor(call.id, new Date(created + seconds * 1000)));
        statuses.add(op.status);
        expect(operationProblems(op)).toEqual([]);
        const rank = ["queued", "uploaded", "in_progress", "completed", "failed"].indexOf(op.status);
        expect(Math.min(rank, 3)).toBeGreaterThanOrEqual(Math.min(previous, 3)); // status never goes back
        previous = rank;
      }
    }
    expect([...statuses].sort()).toEqual(["completed", "failed", "in_progress", "queued", "uploaded"]);
    const failed = operations.filter(({ op }) => op.status === "failed");
    expect(failed.length / operations.length).toBeGreaterThan(0.02);
    expect(failed.length / operations.length).toBeLessThan(0.1);
    for (const { op } of failed) expect(op.error).toMatch(/\S/);
  });

  test("completed conversions carry 1-3 base64 outputs; multi-file iterations plain-text KCL", () => {
    const conversions = operations.filter(
      ({ op }) => op.type === "file_conversion" && op.status === "completed",
    );
    for (const { op } of conversions.slice(0, 50)) {
      const outputs = Object.entries(op.outputs as Record<string, string>);
      expect(outputs.length).toBeGreaterThanOrEqual(1);
      expect(outputs.length).toBeLessThanOrEqual(3);
      for (const [, data] of outputs) {
        expect(Buffer.from(data, "base64").toString("base64")).toBe(data);
        expect(data.length).toBeGreaterThan(0);
      }
      // The main file is a few hundred bytes to a few KB (companions like .mtl can be tiny).
      const sizes = outputs.map(([, data]) => Buffer.from(data, "base64").length);
      expect(Math.max(...sizes)).toBeGreaterThan(250);
      expect(Math.max(...sizes)).toBeLessThan(8000);
    }
    const multi = operations.find(
      ({ op }) => op.type === "text_to_cad_multi_file_iteration" && op.status === "completed",
    );
    expect(Object.values(multi?.op.outputs as Record<string, string>)[0]).toMatch(/extrude/);
  });
});

describe("GET /async/operations/{id}", () => {
  test("serves the operation as the data layer describes it, for each type", async () => {
    const token = must(sim.users[0]).token;
    for (const type of Object.keys(VARIANTS)) {
      const { op } = must(operations.find((o) => o.op.type === type));
      const response = await get<Record<string, unknown>>(sim, `/async/operations/${op.id}`, token);
      expect(response.status).toBe(200);
      expect(response.body).toEqual(op);
      expect(response.headers.get("x-api-call-id")).toMatch(UUID);
    }
  });

  test("walks queued -> uploaded -> in_progress -> done as the clock moves", async () => {
    const walk = await startSimulator(OPTIONS);
    try {
      const token = must(walk.users[0]).token;
      // The first conversion of user 0 created after the initial clock.
      let i = dataset.countCreated(now);
      const firstOp = (j: number) =>
        dataset.operationFor(dataset.idOf(j), new Date(dataset.createdAt(j) / 1000 + 1));
      while (dataset.userIndexOf(i) !== 0 || firstOp(i)?.type !== "file_conversion") i++;
      const id = dataset.idOf(i);
      const seen: string[] = [];
      const updates = new Set<string>();
      let at = Math.ceil(dataset.createdAt(i) / 1000) + 1;
      let step = 250;
      while (seen.at(-1) !== "completed" && seen.at(-1) !== "failed") {
        walk.clock.set(new Date(at));
        const response = await get<{ status: string; updated_at: string }>(
          walk,
          `/async/operations/${id}`,
          token,
        );
        expect(response.status).toBe(200);
        if (seen.at(-1) !== response.body.status) seen.push(response.body.status);
        updates.add(response.body.updated_at);
        if (seen.at(-1) === "in_progress") step = Math.max(step * 1.5, 5000);
        at += step;
      }
      expect(seen.slice(0, 3)).toEqual(["queued", "uploaded", "in_progress"]);
      expect(seen).toHaveLength(4);
      expect(updates.size).toBe(4); // updated_at moves with every status change
    } finally {
      await walk.close();
    }
  });

  test("an operation exists only once its call is visible", async () => {
    const future = dataset.countCreated(now);
    let i = future;
    while (dataset.operationFor(dataset.idOf(i), new Date(dataset.createdAt(i) / 1000 + 1000)) === undefined)
      i++;
    const owner = must(sim.users[dataset.userIndexOf(i)]);
    const response = await get<ErrorBody>(sim, `/async/operations/${dataset.idOf(i)}`, owner.token);
    expect(response.status).toBe(404);
  });

  test.each(["not-a-uuid", "12345", "0000000-0000-4000-8000-000000000000"])(
    "a malformed id (%s) is a 400",
    async (id) => {
      const response = await get<ErrorBody>(sim, `/async/operations/${id}`, must(sim.users[0]).token);
      expect(response.status).toBe(400);
      expect(response.body.message).toMatch(/^unable to parse path parameter "id"/);
    },
  );

  test("a call id that started no operation is a 404", async () => {
    const plain = must(calls.find((c) => dataset.operationFor(c.id, now) === undefined));
    expect((await get(sim, `/async/operations/${plain.id}`, must(sim.users[0]).token)).status).toBe(404);
  });
});
