import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Alert } from "../../src/check/alert.js";
import { evaluateRules } from "../../src/check/evaluateRules.js";
import { type CheckRules, parseRulesFile } from "../../src/config/checkRules.js";
import { openWarehouse, type Warehouse } from "../../src/load/database.js";
import type { SimulatorOptions } from "../../src/sim/index.js";
import { queryDb } from "../helpers/exportHarness.js";
import { simHistory } from "../helpers/simHistory.js";

/**
 * Each rule on simulated histories: on seeds without a plant nothing fires on any day of October;
 * on a history with planted events (a spike day, credits about to run out, an invoice line $1.23
 * off, calls billed 50-80 days late) each alert fires exactly where it was planted; a missed night
 * fires the stale rule. Histories end at the simulator's clock, 2026-11-01T00:00Z, where the one
 * export ran.
 */

/**
 * 500 calls a day from 2026-08-28: October's nights, the 28-day spike baseline of the first of
 * them, and calls billed 50-80 days late still pending at the export. More days only make the
 * four exports longer.
 */
const HISTORY = { calls: 32_500, days: 65 } satisfies SimulatorOptions;
const EXPORTED_AT = Date.parse("2026-11-01T00:00:00Z");
const HOUR = 3_600_000;
const SPIKE_DAY = "2026-10-14";

const RULES = parseRulesFile(
  [
    "# the rules every history is judged by",
    "spike factor=4 min=10 baseline=28d",
    "runway days=5",
    "invoice-difference usd=0",
    "pending days=45",
    "stale hours=26",
  ].join("\n"),
  "test rules",
);

const PLANTED: SimulatorOptions = {
  seed: 4,
  spikeDay: SPIKE_DAY,
  runwayGrantDays: 1,
  invoiceDisagreement: true,
  lateBilling: { share: 0.05, days: [50, 80] },
};

const histories = new Map<string, { db: string; cleanup: () => Promise<void> }>();
/** Each history's warehouse, opened read-only once for all the nights judged on it. */
const opened = new Map<string, Warehouse>();

beforeAll(async () => {
  for (const seed of [1, 2, 3]) histories.set(`seed ${seed}`, await simHistory({ ...HISTORY, seed }));
  histories.set("planted", await simHistory({ ...HISTORY, ...PLANTED }));
});

afterAll(async () => {
  for (const warehouse of opened.values()) warehouse.close();
  for (const history of histories.values()) await history.cleanup();
});

function db(name: string): string {
  const history = histories.get(name);
  if (history === undefined) throw new Error(`no history ${name}`);
  return history.db;
}

/** The alerts of `rules` at the instant `nowMs` (its UTC day is the first day not complete). */
async function alertsAt(name: string, nowMs: number, rules: CheckRules = RULES): Promise<Alert[]> {
  let warehouse = opened.get(name);
  if (warehouse === undefined) {
    warehouse = await openWarehouse(db(name), { readOnly: true });
    opened.set(name, warehouse);
  }
  const now = new Date(nowMs);
  return evaluateRules(warehouse.connection, rules, { asOf: now.toISOString().slice(0, 10), now });
}

/** 02:00 UTC of each day from 2026-10-02 to 2026-11-01: a nightly check judging the day before. */
const NIGHTS = Array.from({ length: 31 }, (_, k) => Date.parse("2026-10-02T02:00:00Z") + k * 24 * HOUR);

function brief(alerts: readonly Alert[]): string[] {
  return alerts.map((alert) => `${alert.rule} ${alert.period}`);
}

/** The rules that judge the night's day (the others read the latest state, judged below once). */
const NIGHTLY: CheckRules = { subjectBudgets: [], spike: RULES.spike };

describe("seeds without a plant", () => {
  test.each([1, 2, 3])(
    "seed %i: no rule fires after the export, nor a spike on any night of October",
    async (seed) => {
      expect(brief(await alertsAt(`seed ${seed}`, EXPORTED_AT + 2 * HOUR))).toEqual([]);
      for (const night of NIGHTS) expect(brief(await alertsAt(`seed ${seed}`, night, NIGHTLY))).toEqual([]);
    },
  );
});

describe("a history with planted events", () => {
  test("the spike fires on the night after the planted day only", async () => {
    const spikes: string[] = [];
    for (const night of NIGHTS) {
      spikes.push(...brief(await alertsAt("planted", night, NIGHTLY)));
    }
    expect(spikes).toEqual([`spike ${SPIKE_DAY}`]);
  });

  test("credits running out, the invoice line off by $1.23 and the calls pending for 50+ days fire", async () => {
    const alerts = await alertsAt("planted", EXPORTED_AT + 2 * HOUR);
    const months = await queryDb(
      db("planted"),
      "SELECT strftime(month, '%Y-%m') AS m FROM monthly_reconciliation WHERE status = 'differs'",
    );
    expect(months).toHaveLength(1);
    expect(alerts.filter((alert) => alert.rule !== "spike")).toEqual([
      expect.objectContaining({ rule: "runway", subject: "credits", period: "2026-11-01" }),
      expect.objectContaining({
        rule: "invoice-difference",
        period: months[0]?.m,
        value: "1.230000",
        threshold: "0.000000",
      }),
      expect.objectContaining({ rule: "pending", subject: "billing", period: "-" }),
    ]);
  });
});

describe("a missed night", () => {
  test.each(["seed 1", "planted"])(
    "%s: stale fires 30 hours after the last export, not 2 hours after",
    async (name) => {
      const staleOnly: CheckRules = { subjectBudgets: [], staleHours: "26" };
      expect(await alertsAt(name, EXPORTED_AT + 2 * HOUR, staleOnly)).toEqual([]);
      expect(await alertsAt(name, EXPORTED_AT + 30 * HOUR, staleOnly)).toEqual([
        {
          rule: "stale",
          subject: "export",
          value: "30.0",
          threshold: "26",
          period: "2026-11-01T00:00:00Z",
          unit: "hours",
          note: "the last completed run ended 2026-11-01 00:00 UTC",
        },
      ]);
    },
  );
});
