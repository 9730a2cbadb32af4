import { describe, expect, test } from "vitest";
import { type PriceFacts, priceOf } from "../../src/sim/billing.js";
import { type ApiCallRecord, createDataset } from "../../src/sim/index.js";

/** Micro-dollars of a decimal price text (at most 6 decimals). */
const micros = (price: string) => {
  const [whole = "0", fraction = ""] = price.split(".");
  return Number(whole) * 1_000_000 + Number(`${fraction}000000`.slice(0, 6));
};
/** Microseconds since the epoch of an RFC 3339 UTC timestamp with 0 to 9 fraction digits. */
const microsOf = (t: string) => {
  const match = /^(.{19})(?:\.(\d+))?Z$/.exec(t);
  if (match === null) throw new Error(`not a timestamp: ${t}`);
  return Date.parse(`${match[1]}Z`) * 1000 + Number(`${match[2] ?? ""}000000`.slice(0, 6));
};
const at = (iso: string) => Date.parse(iso) * 1000;
const S = 1_000_000;

describe("priceOf: Zoo's pricing rules, hand-computed", () => {
  const base: PriceFacts = {
    seed: 1,
    index: 0,
    createdUs: at("2026-01-01T00:00:00Z"),
    runUs: S,
    billable: true,
    failed: false,
    priceMissing: false,
    mode: "realistic",
  };
  test.each([
    // [created_at, run time (µs), price (micro-dollars), minutes, seconds]
    // Per started minute, $0.50, until 2025-09-30; `seconds` did not exist yet.
    ["2025-06-01T12:00:00Z", 1, 500_000, 1, null],
    ["2025-06-01T12:00:00Z", 60 * S, 500_000, 1, null],
    ["2025-06-01T12:00:00Z", 60 * S + 1, 1_000_000, 2, null],
    ["2025-09-29T23:59:59.999999Z", 3 * 60 * S + 500_000, 2_000_000, 4, null],
    // Per second from 2025-09-30, but under 10 s free until 2025-10-14.
    ["2025-09-30T00:00:00Z", 9_999_999, 0, 1, 10],
    ["2025-09-30T00:00:00Z", 10 * S, 80_000, 1, 10],
    ["2025-10-13T23:59:59.999999Z", 2 * S, 0, 1, 2],
    ["2025-10-13T23:59:59.999999Z", 90 * S, 750_000, 2, 90],
    // $1/120 per second, rounded half-up to the cent per call.
    ["2025-10-14T00:00:00Z", 1, 10_000, 1, 1],
    ["2025-10-14T00:00:00Z", 3 * S, 30_000, 1, 3],
    ["2026-03-01T00:00:00Z", 1_500_000, 20_000, 1, 2],
    ["2026-03-01T00:00:00Z", 9 * S, 80_000, 1, 9],
    ["2026-03-01T00:00:00Z", 15 * S, 130_000, 1, 15],
    ["2026-03-01T00:00:00Z", 21 * S, 180_000, 1, 21],
    ["2026-03-01T00:00:00Z", 60 * S, 500_000, 1, 60],
    ["2026-03-01T00:00:00Z", 61 * S, 510_000, 2, 61],
    ["2026-03-01T00:00:00Z", 120 * S, 1_000_000, 2, 120],
    ["2026-03-01T00:00:00Z", 3600 * S, 30_000_000, 60, 3600],
    ["2026-03-01T00:00:00Z", 10_800 * S, 90_000_000, 180, 10_800],
  ] as const)("created %s, run %i µs: %i micro-dollars", (created, runUs, price, minutes, seconds) => {
    expect(priceOf({ ...base, createdUs: at(created), runUs })).toEqual({ micros: price, minutes, seconds });
  });

  test("failed calls, metadata calls and rows without a price", () => {
    for (const createdUs of [at("2025-06-01T00:00:00Z"), at("2026-06-01T00:00:00Z")]) {
      const facts = { ...base, createdUs, runUs: 600 * S };
      expect(priceOf(facts).micros).toBeGreaterThan(0);
      expect(priceOf({ ...facts, failed: true }).micros).toBe(0);
      expect(priceOf({ ...facts, billable: false }).micros).toBe(0);
      expect(priceOf({ ...facts, priceMissing: true }).micros).toBeNull();
      expect(priceOf({ ...facts, failed: true }).minutes).toBe(10);
    }
  });

  test("adversarial mode ignores the rules: sub-cent amounts, failures charged", () => {
    const prices = Array.from({ length: 400 }, (_, index) =>
      priceOf({ ...base, index, failed: true, mode: "adversarial", runUs: 600 * S }),
    ).map((p) => p.micros ?? 0);
    expect(prices.filter((p) => p % 10_000 !== 0).length).toBeGreaterThan(200);
    expect(prices.some((p) => p > 0)).toBe(true);
  });
});

/** A history that spans both pricing eras and the end of the free short calls. */
const spanning = createDataset({
  seed: 5,
  calls: 12_000,
  days: 90,
  users: 1,
  now: new Date("2025-11-15T00:00:00Z"),
});
const later = new Date("2027-01-01T00:00:00Z");
const spanningCalls = [...spanning.visibleCallsForUser(0, later)].filter(
  (c) => microsOf(c.created_at) < at("2025-11-15T00:00:00Z"),
);
const billed = spanningCalls.filter((c) => c.completed_at !== null);
const compute = /^\/(file|ai|ml)\/|^\/ws\/modeling/;
/** Compute is charged; a CORS preflight to a compute path is not. */
const billable = (c: ApiCallRecord) => compute.test(c.endpoint) && c.method !== "OPTIONS";
const operationFailed = (c: ApiCallRecord) => spanning.operationFor(c.id, later)?.status === "failed";
const failed = (c: ApiCallRecord) => (c.status_code ?? 0) >= 400 || operationFailed(c);
const runUs = (c: ApiCallRecord) => microsOf(c.completed_at ?? "") - microsOf(c.started_at ?? "");

describe("the default data follows the rules", () => {
  test("every price is whole cents, and billing fills every call in the end", () => {
    expect(billed.length).toBe(spanningCalls.length);
    const priced = billed.filter((c) => c.price !== null);
    expect(priced.length / billed.length).toBeGreaterThan(0.9);
    for (const call of priced) expect(call.price, call.id).toMatch(/^\d+(\.\d{1,2})?$/);
  });

  test("failed calls (error status or a failed operation) cost nothing", () => {
    const failures = billed.filter(failed);
    expect(failures.filter((c) => (c.status_code ?? 0) >= 400).length).toBeGreaterThan(100);
    expect(failures.filter(operationFailed).length).toBeGreaterThan(50);
    for (const call of failures) expect([null, "0"], call.id).toContain(call.price);
  });

  test("per started minute before 2025-09-30, per second after, short calls free until 2025-10-14", () => {
    const counts = { perMinute: 0, freeShort: 0, perSecond: 0 };
    for (const call of billed) {
      if (call.price === null || failed(call) || !billable(call)) continue;
      const created = microsOf(call.created_at);
      const minutes = Math.ceil(runUs(call) / 60_000_000);
      expect(call.minutes, call.id).toBe(minutes);
      if (created < at("2025-09-30T00:00:00Z")) {
        counts.perMinute++;
        expect(call.seconds, call.id).toBeNull();
        expect(micros(call.price), call.id).toBe(minutes * 500_000);
        continue;
      }
      const seconds = Math.ceil(runUs(call) / 1_000_000);
      expect(call.seconds, call.id).toBe(seconds);
      if (created < at("2025-10-14T00:00:00Z") && runUs(call) < 10_000_000) {
        counts.freeShort++;
        expect(call.price, call.id).toBe("0");
        continue;
      }
      counts.perSecond++;
      // seconds/120 dollars, half-up to the cent, in exact integers: 5*seconds/6 cents.
      expect(micros(call.price), call.id).toBe(Math.floor((5 * seconds + 3) / 6) * 10_000);
    }
    expect(counts.perMinute).toBeGreaterThan(500);
    expect(counts.freeShort).toBeGreaterThan(100);
    expect(counts.perSecond).toBeGreaterThan(500);
  });

  test("metadata calls are free and only charged calls carry an invoice item", () => {
    const charged = { item: 0, credits: 0 };
    for (const call of billed) {
      if (!billable(call)) expect([null, "0"], call.id).toContain(call.price);
      const item = call.stripe_invoice_item_id;
      if (call.price === null || call.price === "0") expect(["", undefined]).toContain(item);
      else if (item === undefined || item === "") charged.credits++;
      else {
        expect(item).toMatch(/^ii_1[0-9A-Za-z]{24}$/);
        charged.item++;
      }
    }
    // Credits pay for some charged calls (no item: not billable), invoices for the others.
    expect(charged.item).toBeGreaterThan(100);
    expect(charged.credits).toBeGreaterThan(100);
  });

  test("spend is spread over the days, without spikes", () => {
    const demo = createDataset({ seed: 1, calls: 20_000, days: 90, users: 1 });
    const perDay = new Map<string, number>();
    for (const call of demo.visibleCallsForUser(0, demo.initialNow)) {
      const day = call.created_at.slice(0, 10);
      perDay.set(day, (perDay.get(day) ?? 0) + (call.price === null ? 0 : micros(call.price)));
    }
    const days = [...perDay.values()].sort((a, b) => a - b);
    expect(days.length).toBeGreaterThanOrEqual(89);
    const median = days[Math.floor(days.length / 2)] ?? 0;
    expect(median).toBeGreaterThan(0);
    expect(days.at(-1) ?? 0).toBeLessThan(4 * median);
    expect(days[0] ?? 0).toBeGreaterThan(0);
  });
});

describe("adversarial mode keeps odd money", () => {
  test("sub-cent prices with many digits, a few large ones, failed calls charged", () => {
    const odd = createDataset({ seed: 5, calls: 5000, days: 30, users: 1, priceMode: "adversarial" });
    const calls = [...odd.visibleCallsForUser(0, later)];
    const prices = calls.filter((c) => c.price !== null).map((c) => c.price ?? "");
    expect(prices.filter((p) => /\.\d{3,6}$/.test(p)).length / prices.length).toBeGreaterThan(0.5);
    expect(prices.some((p) => micros(p) >= 50_000_000)).toBe(true);
    expect(calls.some((c) => (c.status_code ?? 0) >= 400 && c.price !== null && micros(c.price) > 0)).toBe(
      true,
    );
  });
});
