import { describe, expect, test } from "vitest";
import { simulatorOptionsOf } from "../../src/cli/simAction.js";
import {
  CallRate,
  callRateShape,
  DAY_NOISE,
  TREND_PER_WEEK,
  WEEKDAY_WEIGHTS,
} from "../../src/sim/callRate.js";
import { startSimulator } from "../../src/sim/index.js";
import { unit } from "../../src/sim/random.js";
import { SALT } from "../../src/sim/salts.js";
import { plantedSpikeDays, QUIET_MONTH_FACTOR } from "../../src/sim/usageShape.js";

/** The usage shapes the simulator plants for the forecast's backtest, and its defaults without them. */

const US_PER_DAY = 86_400_000_000;
const NOW_US = Date.UTC(2026, 10, 1) * 1000;
const START_US = NOW_US - 365 * US_PER_DAY;
const START_DAY = START_US / US_PER_DAY;
const day = (iso: string) => Date.parse(`${iso}T00:00:00Z`) / 86_400_000;

function rate(options: Parameters<typeof callRateShape>[0], seed = 4) {
  return new CallRate(seed, START_US, NOW_US, callRateShape(options));
}

describe("usage shapes", () => {
  test("none given: each day's rate is the weekday x the 1.5% weekly trend x the uniform +-12% draw", () => {
    const plain = rate({});
    for (let d = START_DAY; d < START_DAY + 365; d++) {
      const weekday = new Date(d * 86_400_000).getUTCDay();
      const trend = 1 + (TREND_PER_WEEK * (d - START_DAY)) / 7;
      const noise = 1 - DAY_NOISE + 2 * DAY_NOISE * unit(4, d, SALT.dayRate);
      expect(plain.weightOf(d)).toBe((WEEKDAY_WEIGHTS[weekday] as number) * trend * noise);
    }
  });

  test("no shape flag of `sim` puts a shape option in the simulator's options", () => {
    const options = simulatorOptionsOf(
      {
        host: "127.0.0.1",
        port: 0,
        seed: 1,
        calls: 10,
        days: 5,
        users: 1,
        priceMode: "realistic",
        invoiceItems: "per-month",
        creditsOnInvoice: "none",
      },
      () => new Date(0),
    );
    for (const key of [
      "stepDay",
      "stepFactor",
      "spikeWeekday",
      "growthPerWeek",
      "quietMonth",
      "lognormalNoise",
      "spikeFactor",
    ]) {
      expect(options, key).not.toHaveProperty(key);
    }
  });

  test("a step of 1 serves byte-identical pages to none: planting multiplies by exactly 1", async () => {
    const pages = async (options: object) => {
      const sim = await startSimulator({ seed: 5, calls: 1500, users: 1, ...options });
      try {
        const response = await fetch(`${sim.url}/user/api-calls?limit=10000`, {
          headers: { authorization: `Bearer ${sim.users[0]?.token}` },
        });
        return await response.text();
      } finally {
        await sim.close();
      }
    };
    const [plain, neutral, stepped] = await Promise.all([
      pages({}),
      pages({ stepDay: "2026-10-01", stepFactor: 1 }),
      pages({ stepDay: "2026-10-01", stepFactor: 2 }),
    ]);
    expect(neutral).toBe(plain);
    expect(stepped).not.toBe(plain);
  });

  test("a step, a quiet month and a weekday spike multiply exactly their days", () => {
    const plain = rate({});
    const ratio = (shaped: CallRate, iso: string) => shaped.weightOf(day(iso)) / plain.weightOf(day(iso));
    const step = rate({ stepDay: "2026-10-15", stepFactor: 0.5 });
    expect([ratio(step, "2026-10-14"), ratio(step, "2026-10-15"), ratio(step, "2026-10-31")]).toEqual([
      1, 0.5, 0.5,
    ]);
    const quiet = rate({ quietMonth: "2026-09" });
    expect([
      ratio(quiet, "2026-08-31"),
      ratio(quiet, "2026-09-01"),
      ratio(quiet, "2026-09-30"),
      ratio(quiet, "2026-10-01"),
    ]).toEqual([1, QUIET_MONTH_FACTOR, QUIET_MONTH_FACTOR, 1]);
    const sundays = rate({ spikeWeekday: 0, spikeFactor: 5 });
    expect(plantedSpikeDays({ spikeWeekday: 0 }, day("2026-09-01"), day("2026-11-01"))).toEqual([
      "2026-09-13",
      "2026-10-11",
    ]);
    expect([
      ratio(sundays, "2026-10-11"),
      ratio(sundays, "2026-10-04"),
      ratio(sundays, "2026-10-18"),
    ]).toEqual([5, 1, 1]);
  });

  test("lognormal day noise has a mean of about 1 and a heavier tail than +-12%", () => {
    const noisy = rate({ lognormalNoise: 0.25, seasonal: true });
    const plain = rate({});
    const draws = Array.from({ length: 365 }, (_, i) => {
      const d = START_DAY + i;
      const trend = 1 + (TREND_PER_WEEK * i) / 7;
      return noisy.weightOf(d) / trend / (WEEKDAY_WEIGHTS[new Date(d * 86_400_000).getUTCDay()] as number);
    });
    const mean = draws.reduce((a, b) => a + b, 0) / draws.length;
    expect(Math.abs(mean - 1)).toBeLessThan(0.05);
    expect(Math.max(...draws)).toBeGreaterThan(1 + DAY_NOISE);
    expect(plain.weightOf(START_DAY)).not.toBe(noisy.weightOf(START_DAY));
  });

  test("a bad step day or quiet month is refused naming the option", () => {
    expect(() => callRateShape({ stepDay: "2026-02-30" })).toThrow(/stepDay must be a UTC day/);
    expect(() => callRateShape({ quietMonth: "2026-13" })).toThrow(/quietMonth/);
    expect(() => callRateShape({ spikeWeekday: 7 })).toThrow(/spikeWeekday/);
  });
});
