import { describe, expect, test } from "vitest";
import {
  type ApiCallRecord,
  createDataset,
  decodePageToken,
  encodePageToken,
  startSimulator,
} from "../../src/sim/index.js";
import { CHRONO_TIME, micros, must, UUID } from "./helpers.js";

const OPTIONS = { seed: 3, calls: 5000, users: 3 };
const dataset = createDataset(OPTIONS);
const now = dataset.initialNow;
const all: ApiCallRecord[] = [];
for (let u = 0; u < 3; u++) all.push(...dataset.visibleCallsForUser(u, now));
const share = (predicate: (c: ApiCallRecord) => boolean) => all.filter(predicate).length / all.length;

describe("the call stream", () => {
  test("about `calls` calls are visible at the initial clock, spread over `days`", () => {
    expect(all.length).toBeGreaterThan(4900);
    expect(all.length).toBeLessThanOrEqual(5000);
    const created = all.map((c) => Date.parse(c.created_at)).sort((a, b) => a - b);
    expect(must(created[0]) - (now.getTime() - 90 * 86_400_000)).toBeLessThan(86_400_000);
    expect(must(created.at(-1))).toBeLessThanOrEqual(now.getTime());
  });

  test("created_at is strictly increasing with the index and ids are unique uuids (v4 and v7)", () => {
    let previous = -1;
    const ids = new Set<string>();
    for (let i = 0; i < 5000; i++) {
      expect(dataset.createdAt(i)).toBeGreaterThan(previous);
      previous = dataset.createdAt(i);
      const id = dataset.idOf(i);
      expect(id).toMatch(UUID);
      ids.add(id);
      expect(dataset.findCallIndex(id)).toBe(i);
    }
    expect(dataset.callAt(4999, now).id).toBe(dataset.idOf(4999));
    expect(ids.size).toBe(5000);
    const versions = new Set([...ids].map((id) => id[14]));
    expect(versions).toEqual(new Set(["4", "7"]));
    expect(dataset.findCallIndex("00000000-0000-4000-8000-000000000000")).toBeUndefined();
  });

  test("records have the spec's required fields and realistic values", () => {
    for (const call of all) {
      for (const field of [
        "id",
        "user_id",
        "token",
        "method",
        "user_agent",
        "created_at",
        "updated_at",
      ] as const) {
        expect(call[field], field).toBeTruthy();
      }
      for (const field of ["created_at", "updated_at", "started_at", "completed_at"] as const) {
        if (call[field] !== null) expect(call[field], field).toMatch(CHRONO_TIME);
      }
      expect(call.updated_at >= call.created_at).toBe(true);
      expect(call.token).toMatch(UUID);
      if (call.price !== null) expect(call.price).toMatch(/^\d+(\.\d{1,6})?$/);
    }
    expect(share((c) => c.endpoint.startsWith("/file/conversion"))).toBeGreaterThan(0.25);
    // Both routes that start a conversion: the current one and the one with formats in the path.
    expect(share((c) => c.endpoint === "/file/conversion")).toBeGreaterThan(0.1);
    expect(share((c) => c.endpoint.startsWith("/file/conversion/"))).toBeGreaterThan(0.1);
    expect(new Set(all.map((c) => c.method))).toEqual(new Set(["GET", "POST", "OPTIONS", "DELETE", "PUT"]));
    expect(share((c) => c.status_code === 200 || c.status_code === 201)).toBeGreaterThan(0.6);
    for (const status of [400, 401, 404, 429, 500, null])
      expect(
        all.some((c) => c.status_code === status),
        String(status),
      ).toBe(true);
    expect(all.some((c) => c.ip_address.includes(":"))).toBe(true);
    expect(all.some((c) => c.origin === "")).toBe(true);
    expect(all.some((c) => c.user_agent.startsWith("Mozilla/5.0"))).toBe(true);
    expect(all.some((c) => c.endpoint.startsWith("/ml/text-to-cad/multi-file"))).toBe(true);
    expect(all.some((c) => c.endpoint === "/ws/modeling/commands")).toBe(true);
    expect(all.some((c) => c.request_query_params.includes("material_density_unit="))).toBe(true);
  });

  test("prices: compute mostly cents, >10% zero (failures), ~3% null, some large; metadata free", () => {
    const compute = /^\/(file|ai|ml)\/|^\/ws\/modeling/;
    const billed = all.filter((c) => c.completed_at !== null && compute.test(c.endpoint));
    const metadata = all.filter((c) => c.completed_at !== null && !compute.test(c.endpoint));
    expect(metadata.length).toBeGreaterThan(100);
    for (const call of metadata) expect([null, "0"]).toContain(call.price);
    const priceShare = (predicate: (price: number) => boolean) =>
      billed.filter((c) => c.price !== null && predicate(Number(c.price))).length / billed.length;
    expect(priceShare((p) => p === 0)).toBeGreaterThan(0.1);
    expect(priceShare((p) => p === 0)).toBeLessThan(0.2);
    expect(billed.filter((c) => c.price === null).length / billed.length).toBeGreaterThan(0.01);
    expect(billed.filter((c) => c.price === null).length / billed.length).toBeLessThan(0.06);
    expect(priceShare((p) => p > 0 && p <= 0.5)).toBeGreaterThan(0.7);
    expect(billed.some((c) => Number(c.price) >= 50)).toBe(true);
    // A charged call has an invoice item only if credits did not pay for it (spec: "if it is billable").
    for (const call of billed) {
      const item = call.stripe_invoice_item_id;
      if (Number(call.price) > 0 && item !== undefined && item !== "")
        expect(item).toMatch(/^ii_1[0-9A-Za-z]{24}$/);
      else expect(["", undefined]).toContain(item);
    }
    expect(billed.some((c) => (c.stripe_invoice_item_id ?? "") !== "")).toBe(true);
  });

  test("duration is the billed run time in nanoseconds", () => {
    const billed = all.filter((c) => c.completed_at !== null);
    expect(billed.filter((c) => c.duration !== null).length / billed.length).toBeGreaterThan(0.9);
    for (const call of billed) {
      if (call.duration === null || call.started_at === null || call.completed_at === null) continue;
      expect(call.duration).toBe((micros(call.completed_at) - micros(call.started_at)) * 1000);
      expect(call.seconds).toBe(Math.ceil(call.duration / 1e9));
      expect(call.minutes).toBe(Math.ceil(call.duration / 6e10));
    }
  });

  test("user 0 has the most calls; calls use the user's 1-3 API tokens and the org's 2 service accounts", () => {
    const per = [0, 1, 2].map((u) => all.filter((c) => c.user_id === must(dataset.users[u]).id));
    expect(must(per[0]).length).toBeGreaterThan(must(per[1]).length);
    expect(must(per[0]).length).toBeGreaterThan(must(per[2]).length);
    for (const [u, calls] of per.entries()) {
      const tokens = new Set(calls.map((c) => c.token));
      expect(tokens.size).toBeGreaterThanOrEqual(1);
      expect(tokens.size).toBeLessThanOrEqual(must(dataset.users[u]).orgId === null ? 3 : 5);
    }
  });
});

describe("page tokens", () => {
  test("round-trip, URL-safe base64 with padding", () => {
    for (let k = 0; k < 50; k++) {
      const call = dataset.callAt(k * 37, now);
      const token = encodePageToken("created_at_descending", call.created_at, call.id);
      expect(token).toMatch(/^[A-Za-z0-9_-]+={0,2}$/);
      expect(token.length % 4).toBe(0);
      const json = JSON.parse(Buffer.from(token, "base64url").toString());
      expect(json).toEqual({
        v: "v1",
        page_start: { sort_by: "created_at_descending", created_at: call.created_at, id: call.id },
      });
      const decoded = decodePageToken(token);
      expect(decoded.ok && decoded.token.id).toBe(call.id);
    }
  });
});

describe("price encoding", () => {
  test("JSON numbers by default carry the exact decimal; priceAsString serves strings", async () => {
    const asNumber = await startSimulator({ ...OPTIONS, priceAsString: false });
    const asString = await startSimulator({ ...OPTIONS, priceAsString: true });
    try {
      const headers = { authorization: `Bearer ${must(asNumber.users[0]).token}` };
      const query = "/user/api-calls?limit=500&sort_by=created_at_ascending";
      const numberText = await (await fetch(`${asNumber.url}${query}`, { headers })).text();
      const stringBody = (await (await fetch(`${asString.url}${query}`, { headers })).json()) as {
        items: Array<{ price: unknown }>;
      };
      const prices = stringBody.items.map((i) => i.price).filter((p) => p !== null) as string[];
      expect(prices.length).toBeGreaterThan(100);
      for (const price of prices) {
        expect(typeof price).toBe("string");
        expect(numberText).toContain(`"price":${price},`);
      }
    } finally {
      await asNumber.close();
      await asString.close();
    }
  });
});
