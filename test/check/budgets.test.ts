import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Alert } from "../../src/check/alert.js";
import { evaluateRules } from "../../src/check/evaluateRules.js";
import type { CheckRules } from "../../src/config/checkRules.js";
import { openWarehouse, type Warehouse } from "../../src/load/database.js";
import { queryDb } from "../helpers/exportHarness.js";
import { simHistory } from "../helpers/simHistory.js";

/**
 * The budgets on a simulated history (seed 1, ending 2026-11-01): a budget crossing fires on
 * exactly the nights the month-to-date has reached its share, the forecast warns before the month
 * reaches the budget, and per-subject budgets fire at their spend and not a cent above it.
 */

const HOUR = 3_600_000;
const NIGHTS = Array.from({ length: 31 }, (_, k) => Date.parse("2026-10-02T02:00:00Z") + k * 24 * HOUR);
let history: { db: string; cleanup: () => Promise<void> };
let warehouse: Warehouse;

beforeAll(async () => {
  history = await simHistory({ seed: 1, calls: 20_000, days: 120 });
  warehouse = await openWarehouse(history.db, { readOnly: true });
});

afterAll(async () => {
  warehouse.close();
  await history.cleanup();
});

async function alertsAt(nowMs: number, rules: CheckRules): Promise<Alert[]> {
  const now = new Date(nowMs);
  return evaluateRules(warehouse.connection, rules, { asOf: now.toISOString().slice(0, 10), now });
}

/** Micro-dollars of a decimal text (exact: no float). */
function micros(usd: string): bigint {
  const [integer = "0", fraction = ""] = usd.split(".");
  return BigInt(integer) * 1_000_000n + BigInt(fraction.padEnd(6, "0").slice(0, 6));
}

function usd(amount: bigint): string {
  return `${amount / 1_000_000n}.${String(amount % 1_000_000n).padStart(6, "0")}`;
}

/** October's spend per day, in micro-dollars, from the warehouse's cost_per_day. */
async function octoberDays(): Promise<Map<string, bigint>> {
  const rows = await queryDb(
    history.db,
    "SELECT strftime(day, '%Y-%m-%d') AS day, CAST(cost_usd AS VARCHAR) AS usd FROM cost_per_day WHERE day >= DATE '2026-10-01' AND day < DATE '2026-11-01'",
  );
  return new Map(rows.map((row) => [String(row.day), micros(String(row.usd))]));
}

describe("the monthly budget", () => {
  test("the actual alert fires on exactly the nights month-to-date has reached 80%; the forecast warns first", async () => {
    const days = await octoberDays();
    const total = [...days.values()].reduce((a, b) => a + b, 0n);
    const rules: CheckRules = {
      subjectBudgets: [],
      budget: { usd: usd(total), actualPercent: "80", forecastPercent: "100" },
    };
    const expectedActual: string[] = [];
    const firedActual: string[] = [];
    const firedForecast: string[] = [];
    for (const night of NIGHTS) {
      const asOf = new Date(night).toISOString().slice(0, 10);
      const toDate = [...days.entries()].filter(([day]) => day < asOf).reduce((a, [, v]) => a + v, 0n);
      if (toDate * 100n >= total * 80n) expectedActual.push(asOf);
      const alerts = await alertsAt(night, rules);
      for (const alert of alerts) {
        if (alert.rule === "budget-actual") {
          firedActual.push(asOf);
          expect(alert.value).toBe(usd(toDate));
          expect(alert.threshold).toBe(usd((total * 80n) / 100n));
        }
        if (alert.rule === "budget-forecast") firedForecast.push(asOf);
        expect(alert.period).toBe("2026-10");
      }
    }
    expect(expectedActual.length).toBeGreaterThan(0);
    expect(firedActual).toEqual(expectedActual);
    // Month-to-date reaches the whole budget only on the last night; the forecast said so before.
    expect(firedForecast.length).toBeGreaterThan(0);
    expect((firedForecast[0] as string) < "2026-10-25").toBe(true);
  });

  test("a budget three times the month never fires", async () => {
    const total = [...(await octoberDays()).values()].reduce((a, b) => a + b, 0n);
    const rules: CheckRules = {
      subjectBudgets: [],
      budget: { usd: usd(total * 3n), actualPercent: "80", forecastPercent: "100" },
    };
    for (const night of NIGHTS) expect(await alertsAt(night, rules)).toEqual([]);
  });
});

describe("budgets per endpoint, member and token label", () => {
  const NOVEMBER_1 = Date.parse("2026-11-01T02:00:00Z");

  test.each([
    [
      "endpoint",
      "SELECT endpoint_template AS subject, CAST(sum(price_usd) AS VARCHAR) AS usd FROM api_calls_enriched WHERE month = DATE '2026-10-01' GROUP BY 1 ORDER BY sum(price_usd) DESC LIMIT 1",
    ],
    [
      "member",
      "SELECT CAST(user_id AS VARCHAR) AS subject, CAST(sum(price_usd) AS VARCHAR) AS usd FROM api_calls_enriched WHERE month = DATE '2026-10-01' GROUP BY 1",
    ],
    [
      "token",
      "SELECT token_label AS subject, CAST(sum(price_usd) AS VARCHAR) AS usd FROM call_token_match WHERE match_status = 'matched' AND created_at >= TIMESTAMPTZ '2026-10-01 00:00:00+00' AND created_at < TIMESTAMPTZ '2026-11-01 00:00:00+00' GROUP BY 1 ORDER BY sum(price_usd) DESC LIMIT 1",
    ],
  ] as const)("%s: fires at its October spend, not a cent above it", async (kind, sql) => {
    const [row] = await queryDb(history.db, sql);
    expect(row).toBeDefined();
    const subject = String(row?.subject);
    const spent = String(row?.usd);
    const at = (budget: string): CheckRules => ({ subjectBudgets: [{ kind, subject, usd: budget }] });
    expect(await alertsAt(NOVEMBER_1, at(spent))).toEqual([
      {
        rule: `${kind}-budget`,
        subject,
        value: usd(micros(spent)),
        threshold: spent,
        period: "2026-10",
        unit: "usd",
        note: "month to date",
      },
    ]);
    expect(await alertsAt(NOVEMBER_1, at(usd(micros(spent) + 10_000n)))).toEqual([]);
  });
});
