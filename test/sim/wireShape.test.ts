import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ByteWriter } from "../../src/sim/byteWriter.js";
import { createDataset, type RunningSimulator, startSimulator } from "../../src/sim/index.js";
import { formatMicros } from "../../src/sim/time.js";
import { CHRONO_TIME, must } from "./helpers.js";

const OPTIONS = { seed: 8, calls: 4000, users: 1 };
let sim: RunningSimulator;
/** Enough calls that every endpoint kind and user agent appears. */
const dataset = createDataset({ seed: 8, calls: 20_000, users: 1 });
const calls = [...dataset.visibleCallsForUser(0, dataset.initialNow)];

beforeAll(async () => {
  sim = await startSimulator(OPTIONS);
});
afterAll(async () => {
  await sim.close();
});

async function raw(path: string, token?: string): Promise<{ status: number; text: string }> {
  const headers: Record<string, string> = token === undefined ? {} : { authorization: `Bearer ${token}` };
  const response = await fetch(`${sim.url}${path}`, { headers, signal: AbortSignal.timeout(10_000) });
  return { status: response.status, text: await response.text() };
}

describe("pages in Dropshot's order", () => {
  test("a page is {next_page, items} with the token first, compact; the last one has null first", async () => {
    const token = must(sim.users[0]).token;
    const first = await raw("/user/api-calls?limit=3&sort_by=created_at_descending", token);
    expect(first.status).toBe(200);
    expect(first.text).toMatch(/^\{"next_page":"[A-Za-z0-9_=-]+","items":\[\{"id":"/);
    expect(first.text.endsWith("}]}")).toBe(true);
    const page = JSON.parse(first.text);
    expect(Object.keys(page)).toEqual(["next_page", "items"]);
    expect(page.items).toHaveLength(3);
    // The rest in one page, then the empty page that ends the scan.
    const end = await raw(
      `/user/api-calls?limit=10000&page_token=${encodeURIComponent(page.next_page)}`,
      token,
    );
    const last = JSON.parse(end.text);
    const after = await raw(`/user/api-calls?page_token=${encodeURIComponent(last.next_page)}`, token);
    expect(after.text).toBe('{"next_page":null,"items":[]}');
  });
});

describe("errors as Dropshot writes them", () => {
  test("pretty-printed, request_id first, then error_code when there is one, then message", async () => {
    const unauthorized = await raw("/user/api-calls?limit=1");
    expect(unauthorized.status).toBe(401);
    const body = JSON.parse(unauthorized.text);
    expect(Object.keys(body)).toEqual(["request_id", "message"]);
    expect(unauthorized.text).toBe(
      `{\n  "request_id": "${body.request_id}",\n  "message": ${JSON.stringify(body.message)}\n}`,
    );
    const badLimit = await raw("/user/api-calls?limit=0", must(sim.users[0]).token);
    expect(badLimit.status).toBe(400);
    expect(badLimit.text).toMatch(/^\{\n {2}"request_id": "[0-9a-f-]{36}",\n {2}"message": "unable to parse/);
  });

  test("a 500 carries error_code Internal between request_id and message", async () => {
    sim.setFaults({ rate5xx: 1, faultSeed: 3 });
    try {
      let seen = 0;
      for (let n = 0; n < 20 && seen === 0; n++) {
        const reply = await raw("/user/api-calls?limit=1", must(sim.users[0]).token);
        if (reply.status !== 500) continue;
        seen += 1;
        const body = JSON.parse(reply.text);
        expect(Object.keys(body)).toEqual(["request_id", "error_code", "message"]);
        expect(body.error_code).toBe("Internal");
        expect(reply.text).toBe(JSON.stringify(body, null, 2));
      }
      expect(seen).toBe(1);
    } finally {
      sim.setFaults({});
    }
  });
});

describe("timestamps as chrono writes them", () => {
  const SECOND = Date.UTC(2026, 7, 3, 12, 34, 56) * 1000;
  test.each([
    [SECOND, "2026-08-03T12:34:56Z"],
    [SECOND + 120_000, "2026-08-03T12:34:56.120Z"],
    [SECOND + 1_000, "2026-08-03T12:34:56.001Z"],
    [SECOND + 123_456, "2026-08-03T12:34:56.123456Z"],
    [SECOND + 100, "2026-08-03T12:34:56.000100Z"],
    [SECOND + 999_999, "2026-08-03T12:34:56.999999Z"],
    [Date.UTC(2026, 0, 1) * 1000, "2026-01-01T00:00:00Z"],
  ])("%d µs is %s, from the byte writer and from formatMicros", (us, text) => {
    const writer = new ByteWriter(64);
    writer.timestamp(us);
    writer.timestamp(us + 1);
    const written = writer.bytes().toString("latin1");
    expect(written.startsWith(`"${text}"`)).toBe(true);
    expect(formatMicros(us)).toBe(text);
    expect(text).toMatch(CHRONO_TIME);
    // The writer's next timestamp starts right after the closing quote.
    expect(written.slice(text.length + 2)).toBe(`"${formatMicros(us + 1)}"`);
  });

  test("the simulated records hold 3-digit fractions where the clock falls on a millisecond", () => {
    const times = calls.flatMap((call) =>
      [call.created_at, call.updated_at, call.started_at, call.completed_at].filter((t) => t !== null),
    );
    for (const time of times) expect(time).toMatch(CHRONO_TIME);
    expect(times.some((time) => time.length === "2026-08-03T12:34:56.120Z".length)).toBe(true);
  });
});

describe("the routes behind the records", () => {
  test("POST /file/execute/{lang} answers 201; conversions come from both conversion routes", () => {
    const execute = calls.filter((c) => c.endpoint === "/file/execute/python");
    expect(execute.length).toBeGreaterThan(0);
    const statuses = new Set(execute.map((c) => c.status_code));
    expect(statuses.has(201)).toBe(true);
    expect(statuses.has(200)).toBe(false);
    const current = calls.filter((c) => c.endpoint === "/file/conversion" && c.status_code === 201);
    expect(current.length).toBeGreaterThan(0);
    for (const call of current)
      expect(dataset.operationFor(call.id, dataset.initialNow)?.type).toBe("file_conversion");
  });

  test("user agents include the Rust crates' `<crate>.rs/<version>`", () => {
    const agents = new Set(calls.map((c) => c.user_agent));
    expect(agents.has("kittycad.rs/0.3.36")).toBe(true);
    expect(agents.has("kcl-lib.rs/0.2.80")).toBe(true);
  });
});
