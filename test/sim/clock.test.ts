import { afterEach, describe, expect, test } from "vitest";
import { createDataset, type RunningSimulator, startSimulator } from "../../src/sim/index.js";
import { compareKey, listPage, micros, must, scan } from "./helpers.js";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Fields that only change when billing completes (and updated_at moves with them). */
const BILLING_FIELDS = [
  "price",
  "started_at",
  "completed_at",
  "minutes",
  "seconds",
  "duration",
  "stripe_invoice_item_id",
  "updated_at",
];

let sim: RunningSimulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

describe("the simulated clock", () => {
  test("only moves forward", async () => {
    sim = await startSimulator({ calls: 100 });
    const start = sim.clock.now();
    sim.clock.advance(1000);
    expect(sim.clock.now().getTime()).toBe(start.getTime() + 1000);
    expect(() => sim?.clock.set(start)).toThrow(RangeError);
    expect(() => sim?.clock.advance(-1)).toThrow(RangeError);
  });

  test("a stored token keeps working after the clock moves and yields the newly created calls", async () => {
    const options = { seed: 5, calls: 3000, users: 2 };
    sim = await startSimulator(options);
    const token = must(sim.users[0]).token;
    const before = await scan(sim, token, { limit: 500 });
    expect(before.lastToken).not.toBeNull();

    sim.clock.advance(2 * DAY);
    const after = await scan(sim, token, { limit: 500, startToken: before.lastToken ?? "" });
    const last = must(before.items.at(-1));
    const dataset = createDataset(options);
    const expected = [...dataset.visibleCallsForUser(0, sim.clock.now())].filter(
      (c) => compareKey(c, last) > 0,
    );
    expect(expected.length).toBeGreaterThan(10);
    expect(after.items.map((i) => i.id)).toEqual(expected.map((c) => c.id));
  });

  test("moving the clock only adds calls and fills billing", async () => {
    sim = await startSimulator({ seed: 9, calls: 2000, users: 2, days: 10 });
    const token = must(sim.users[0]).token;
    const before = (await scan(sim, token, { limit: 1000 })).items;
    sim.clock.advance(3 * DAY);
    const after = new Map((await scan(sim, token, { limit: 1000 })).items.map((i) => [i.id, i]));
    expect(after.size).toBeGreaterThan(before.length);
    let filled = 0;
    for (const old of before) {
      const now = after.get(old.id);
      expect(now, `call ${old.id} disappeared`).toBeDefined();
      for (const [field, value] of Object.entries(old)) {
        if (!BILLING_FIELDS.includes(field)) expect(now?.[field], field).toEqual(value);
        else if (value !== null && value !== "" && field !== "updated_at")
          expect(now?.[field], field).toEqual(value);
      }
      if (old.completed_at === null) filled++;
    }
    // The last minutes before the first snapshot had calls with billing still pending.
    expect(filled).toBeGreaterThan(0);
  });
});

describe("billing completes after the call", () => {
  test("price, completed_at, minutes, seconds are null until billing completes, then filled", async () => {
    // 4000 calls over one day: one every ~22 s, so the last half hour holds many unbilled calls.
    // Every call billed on time: late billing has its own tests (lateBilling.test.ts).
    sim = await startSimulator({ seed: 2, calls: 4000, days: 1, users: 1, lateBilling: { share: 0 } });
    const token = must(sim.users[0]).token;
    const recent = (await listPage(sim, token, "limit=60&sort_by=created_at_descending")).items;
    const pending = recent.filter((c) => c.completed_at === null);
    expect(pending.length).toBeGreaterThan(10);
    for (const call of pending) {
      expect(call.price).toBeNull();
      expect(call.minutes).toBeNull();
      expect(call.seconds).toBeNull();
      // started_at and completed_at are the call's billing times: both null until it lands.
      expect(call.started_at).toBeNull();
      // Pending rows were last written a few ms after the call.
      expect(micros(call.updated_at) - micros(call.created_at)).toBeLessThan(1_000_000);
    }

    sim.clock.advance(4 * HOUR); // longer than the longest simulated call plus billing delay
    const ids = new Set(pending.map((c) => c.id));
    const later = (await listPage(sim, token, "limit=1000&sort_by=created_at_descending")).items.filter((c) =>
      ids.has(c.id),
    );
    expect(later).toHaveLength(pending.length);
    for (const call of later) {
      expect(call.completed_at).not.toBeNull();
      expect(call.minutes).toBeGreaterThanOrEqual(1);
      expect(call.seconds).toBeGreaterThanOrEqual(1);
      expect(call.updated_at).not.toBe(call.created_at);
      expect(micros(call.updated_at)).toBeGreaterThanOrEqual(micros(call.completed_at));
      if (call.duration !== null) {
        // duration is nanoseconds: completed_at - started_at, to the microsecond.
        expect(
          Math.abs(Number(call.duration) - (micros(call.completed_at) - micros(call.started_at)) * 1000),
        ).toBeLessThanOrEqual(1000);
      }
    }
    expect(later.filter((c) => c.price !== null).length).toBeGreaterThan(later.length * 0.8);
  });
});

describe("late-listed calls", () => {
  test("appear only once their listing delay has passed, and a stored token never sees them", async () => {
    const options = { seed: 4, calls: 20_000, days: 20, users: 1 };
    const dataset = createDataset(options);
    const start = dataset.countCreated(dataset.initialNow);
    let late = start;
    while (!dataset.timeline.isLate(late)) late++;
    const createdMs = dataset.createdAt(late) / 1000;
    const visibleMs = dataset.timeline.visibleFrom(late) / 1000;
    expect(visibleMs - createdMs).toBeGreaterThanOrEqual(HOUR);

    sim = await startSimulator(options);
    const token = must(sim.users[0]).token;
    const lateId = dataset.idOf(late);
    // Half an hour after it was created: newer calls are listed, the late one is not yet.
    sim.clock.set(new Date(Math.ceil(createdMs) + HOUR / 2));
    const early = await scan(sim, token, { limit: 10_000 });
    expect(early.items.some((c) => c.id === lateId)).toBe(false);
    expect(must(early.items.at(-1)).created_at > dataset.callAt(late, sim.clock.now()).created_at).toBe(true);

    sim.clock.set(new Date(Math.ceil(visibleMs)));
    const listed = await scan(sim, token, { limit: 10_000 });
    expect(listed.items.some((c) => c.id === lateId)).toBe(true);
    // A stored token resumes after its key, and the late call sorts before it: the cursor skips it,
    // which is why an exporter must re-read a recent window.
    const resumed = await scan(sim, token, { limit: 10_000, startToken: early.lastToken ?? "" });
    expect(resumed.items.length).toBeGreaterThan(0);
    expect(resumed.items.some((c) => c.id === lateId)).toBe(false);
  });
});

describe("a simulated clock running with a wall clock (the sim command's)", () => {
  test("moves as the wall clock does, plus what it is told, and never back", async () => {
    let wallMs = Date.parse("2030-01-01T00:00:00Z");
    const start = new Date("2026-11-20T12:00:00Z");
    sim = await startSimulator({
      seed: 3,
      calls: 200,
      users: 1,
      now: start,
      wallClock: () => new Date(wallMs),
    });
    expect(sim.clock.now()).toEqual(start);
    wallMs += 5 * HOUR;
    expect(sim.clock.now().getTime()).toBe(start.getTime() + 5 * HOUR);
    sim.clock.advance(DAY);
    expect(sim.clock.now().getTime()).toBe(start.getTime() + 29 * HOUR);
    // A wall clock stepped back stalls the simulated one; it does not run backwards.
    wallMs -= 3 * HOUR;
    expect(sim.clock.now().getTime()).toBe(start.getTime() + 29 * HOUR);
    sim.clock.set(new Date("2026-11-23T00:00:00Z"));
    expect(sim.clock.now().toISOString()).toBe("2026-11-23T00:00:00.000Z");
    wallMs += 4 * HOUR;
    expect(sim.clock.now().toISOString()).toBe("2026-11-23T01:00:00.000Z");
    // Calls made meanwhile are listed: the history grows with the wall clock.
    const page = await listPage(sim, must(sim.users[0]).token, "limit=1&sort_by=created_at_descending");
    expect(Date.parse(must(page.items[0]).created_at)).toBeGreaterThan(start.getTime());
  });
});
