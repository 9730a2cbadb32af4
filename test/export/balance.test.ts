import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { openWarehouse } from "../../src/load/database.js";
import { readReportFigures } from "../../src/report/readFigures.js";
import { renderTerminal } from "../../src/report/terminal.js";
import { type RunningSimulator, startSimulator } from "../../src/sim/index.js";
import { listAllCalls, toMicros } from "../helpers/apiTruth.js";
import { runCli } from "../helpers/cli.js";
import { exportOnce, queryDb, tempWorkspace } from "../helpers/exportHarness.js";
import {
  errorBody,
  pageBody,
  resourcesPerTest,
  sendJson,
  startHostileApi,
  validCall,
} from "../helpers/hostileApi.js";

const DAY_US = 86_400_000_000n;
const HOUR_MS = 3_600_000;

/** Micro-dollars as DECIMAL(18,6) text, as DuckDB prints it. */
function decimalText(micros: bigint): string {
  const sign = micros < 0n ? "-" : "";
  const magnitude = micros < 0n ? -micros : micros;
  return `${sign}${magnitude / 1_000_000n}.${(magnitude % 1_000_000n).toString().padStart(6, "0")}`;
}

/** USD per day, rounded down to the micro-dollar, as the views define it. */
function perDay(micros: bigint, elapsedUs: bigint): bigint {
  return (micros * DAY_US) / elapsedUs;
}

/** The balance the API reports now, read with plain fetch. */
async function apiBalance(url: string, token: string): Promise<Record<string, unknown>> {
  const response = await fetch(`${url}/user/payment/balance`, {
    headers: { authorization: `Bearer ${token}` },
    signal: AbortSignal.timeout(5000),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as Record<string, unknown>;
}

/** The plan's monthly allowance a CustomerBalance body names (subscription_details.modeling_app). */
function planAllowance(balance: Record<string, unknown>): unknown {
  const details = balance.subscription_details as { modeling_app?: Record<string, unknown> } | undefined;
  return details?.modeling_app?.monthly_pay_as_you_go_api_credits_monetary_value;
}

describe("the credits balance, one snapshot per export", () => {
  let sim: RunningSimulator;
  let token = "";
  const workspace = tempWorkspace();

  beforeAll(async () => {
    sim = await startSimulator({ seed: 31, calls: 1500, days: 3, users: 2 });
    token = sim.users[0]?.token ?? "";
  });
  afterAll(async () => {
    await sim.close();
    await (await workspace).cleanup();
  });

  test("two exports at different clocks store the API's values exactly, then burn and runway", async () => {
    const { db, out } = await workspace;
    const flags = { db, out, limit: 500 };
    const now = () => sim.clock.now();

    const truthFirst = await apiBalance(sim.url, token);
    const calls = await listAllCalls(sim.url, token);
    const first = await exportOnce({ baseUrl: sim.url, token, flags, now });
    expect(first.exitCode).toBe(0);
    const firstTakenAt = sim.clock.now();
    const firstRemaining =
      toMicros(String(truthFirst.monthly_api_credits_remaining_monetary_value)) +
      toMicros(String(truthFirst.stable_api_credits_remaining_monetary_value));
    expect(first.summary.balance).toEqual({
      status: "stored",
      snapshots: 1,
      remaining_usd: decimalText(firstRemaining),
      rejected: 0,
      seconds: expect.any(Number),
    });

    // One snapshot: the runway comes from the stored calls' priced spend over the last 30 days
    // (here the whole history, which is shorter), per day.
    const [single] = await queryDb(
      db,
      "SELECT burn_source, spend_usd_per_day::VARCHAR AS spend, burn_usd_per_day::VARCHAR AS burn FROM credit_runway",
    );
    const spendMicros = calls.reduce(
      (sum, call) => sum + (call.price === null ? 0n : toMicros(call.price)),
      0n,
    );
    const firstCallUs = BigInt(Date.parse(calls[0]?.created_at ?? "")) * 1000n;
    const historyUs = BigInt(firstTakenAt.getTime()) * 1000n - firstCallUs;
    // created_at has microseconds: the listing's first call, exactly as stored.
    const [oldest] = await queryDb(db, "SELECT epoch_us(min(created_at))::VARCHAR AS us FROM api_calls");
    const exactHistoryUs = BigInt(firstTakenAt.getTime()) * 1000n - BigInt(String(oldest?.us));
    expect(Number(historyUs - exactHistoryUs)).toBeLessThan(1000);
    expect(single).toEqual({
      burn_source: "api_calls",
      spend: decimalText(perDay(spendMicros, exactHistoryUs)),
      burn: decimalText(perDay(spendMicros, exactHistoryUs)),
    });

    sim.clock.advance(20 * HOUR_MS);
    const truthSecond = await apiBalance(sim.url, token);
    const second = await exportOnce({ baseUrl: sim.url, token, flags, now });
    expect(second.exitCode).toBe(0);
    const secondTakenAt = sim.clock.now();

    const snapshots = await queryDb(
      db,
      `SELECT run_id, strftime(taken_at, '%Y-%m-%dT%H:%M:%S.%fZ') AS taken_at, scope,
              monthly_api_credits_remaining::VARCHAR AS monthly_count,
              monthly_api_credits_remaining_monetary_value::VARCHAR AS monthly_usd,
              strftime(monthly_api_credits_refresh_at, '%Y-%m-%dT%H:%M:%SZ') AS refresh_at,
              stable_api_credits_remaining::VARCHAR AS stable_count,
              stable_api_credits_remaining_monetary_value::VARCHAR AS stable_usd,
              total_due, subscription_id, subscription_details, extra
       FROM balance_snapshots ORDER BY taken_at`,
    );
    expect(snapshots).toHaveLength(2);
    for (const [index, [truth, takenAt, run]] of (
      [
        [truthFirst, firstTakenAt, first],
        [truthSecond, secondTakenAt, second],
      ] as const
    ).entries()) {
      expect(snapshots[index]).toEqual({
        run_id: run.summary.run_id,
        taken_at: takenAt.toISOString().replace("Z", "000Z"),
        scope: "user",
        monthly_count: String(truth.monthly_api_credits_remaining),
        monthly_usd: decimalText(toMicros(String(truth.monthly_api_credits_remaining_monetary_value))),
        refresh_at: truth.monthly_api_credits_refresh_at,
        stable_count: String(truth.stable_api_credits_remaining),
        stable_usd: decimalText(toMicros(String(truth.stable_api_credits_remaining_monetary_value))),
        total_due: null,
        subscription_id: null,
        // The simulated plan (the free tier), as the API sent it.
        subscription_details: JSON.stringify(truth.subscription_details),
        extra: null,
      });
    }

    // Burn between the two snapshots: what the credits lost, per day of the 20 hours between them.
    const secondRemaining =
      toMicros(String(truthSecond.monthly_api_credits_remaining_monetary_value)) +
      toMicros(String(truthSecond.stable_api_credits_remaining_monetary_value));
    const consumed = firstRemaining - secondRemaining;
    expect(consumed).toBeGreaterThan(0n);
    const elapsedUs = BigInt(20 * HOUR_MS) * 1000n;
    const burn = perDay(consumed, elapsedUs);
    const burnRows = await queryDb(
      db,
      "SELECT counted, consumed_usd::VARCHAR AS consumed, burn_usd_per_day::VARCHAR AS burn, elapsed_us::VARCHAR AS elapsed FROM credit_burn",
    );
    expect(burnRows).toEqual([
      { counted: true, consumed: decimalText(consumed), burn: decimalText(burn), elapsed: String(elapsedUs) },
    ]);

    // Runway: the remaining value at the burn of the counted pair.
    const runwayUs = (secondRemaining * DAY_US) / burn;
    const runsOut = new Date(Number((BigInt(secondTakenAt.getTime()) * 1000n + runwayUs) / 1000n));
    const [runway] = await queryDb(
      db,
      `SELECT burn_source, remaining_usd::VARCHAR AS remaining, burn_usd_per_day::VARCHAR AS burn,
              runs_out_on::VARCHAR AS runs_out_on, epoch_us(runs_out_at)::VARCHAR AS runs_out_us
       FROM credit_runway`,
    );
    expect(runway).toEqual({
      burn_source: "snapshots",
      remaining: decimalText(secondRemaining),
      burn: decimalText(burn),
      runs_out_on: runsOut.toISOString().slice(0, 10),
      runs_out_us: String(BigInt(secondTakenAt.getTime()) * 1000n + runwayUs),
    });

    // The report shows the same figures.
    const warehouse = await openWarehouse(db, { readOnly: true });
    try {
      const figures = await readReportFigures(warehouse, {
        from: null,
        to: null,
        top: 5,
        generatedAt: new Date(),
      });
      expect(figures.credits).toEqual({
        taken_at: secondTakenAt.toISOString().replace("Z", "000Z"),
        remaining_usd: decimalText(secondRemaining),
        monthly_usd: decimalText(toMicros(String(truthSecond.monthly_api_credits_remaining_monetary_value))),
        stable_usd: decimalText(toMicros(String(truthSecond.stable_api_credits_remaining_monetary_value))),
        monthly_credits: String(truthSecond.monthly_api_credits_remaining),
        stable_credits: String(truthSecond.stable_api_credits_remaining),
        monthly_refresh_at: expect.any(String),
        // The plan's monthly allowance, from the snapshot's subscription_details (the free tier's).
        monthly_allowance_usd: decimalText(toMicros(String(planAllowance(truthSecond)))),
        burn_usd_per_day: decimalText(burn),
        burn_source: "snapshots",
        runway_days: expect.any(Number),
        runs_out_on: runsOut.toISOString().slice(0, 10),
      });
      expect(renderTerminal(figures)).toContain(`runs out on ${runsOut.toISOString().slice(0, 10)}`);
    } finally {
      warehouse.close();
    }
  });
});

const HOSTILE_ORG_ID = "0f0e0d0c-0b0a-4908-8706-050403020100";

describe("a balance the token cannot see, or cannot be stored", () => {
  const resources = resourcesPerTest();
  const calls = [validCall(1), validCall(2, { price: 1.5 })];

  /** Calls on both scopes' listings; the balance answered by `balance`. */
  function api(balance: (res: Parameters<typeof sendJson>[0], path: string) => void) {
    return resources.hostile((request, res) => {
      if (request.path === "/user/api-calls" || request.path === "/org/api-calls") {
        const token = request.query.get("page_token");
        sendJson(res, 200, token === null ? pageBody(calls, "p1") : pageBody([], null));
        return;
      }
      if (request.path.endsWith("/payment/balance")) {
        balance(res, request.path);
        return;
      }
      // --scope org asks whose org it is first.
      if (request.path === "/org") {
        sendJson(res, 200, { id: HOSTILE_ORG_ID, name: "Hostile org" });
        return;
      }
      sendJson(res, 404, errorBody(404, "not found"));
    });
  }

  test("403 on the org scope for a non-admin: a warning on stderr and in the summary, exit 0", async () => {
    const paths: string[] = [];
    const hostile = await api((res, path) => {
      paths.push(path);
      sendJson(res, 403, errorBody(403, "forbidden: you are not an admin of this org"));
    });
    const { db, out } = await resources.workspace();
    const result = await runCli(
      ["export", "--db", db, "--out", out, "--scope", "org", "--no-operations", "--json"],
      { env: { ZOO_API_TOKEN: "hostile-token-balance", ZOO_HOST: hostile.url } },
    );
    expect(result.code).toBe(0);
    expect(paths).toEqual(["/org/payment/balance"]);
    const summary = JSON.parse(result.stdout.trim().split("\n").at(-1) ?? "{}");
    expect(summary.status).toBe("completed");
    expect(summary.balance).toMatchObject({
      status: "skipped",
      snapshots: 0,
      remaining_usd: null,
      rejected: 0,
      message: expect.stringMatching(/^balance skipped: the API answered 403 .*\/org\/payment\/balance/),
    });
    expect(summary.warnings.join("\n")).toMatch(/balance skipped: the API answered 403/);
    expect(result.stderr).toMatch(/balance skipped: the API answered 403 .*forbidden/);
    expect(await queryDb(db, "SELECT count(*)::INTEGER AS n FROM balance_snapshots")).toEqual([{ n: 0 }]);
    expect(await queryDb(db, "SELECT count(*)::INTEGER AS n FROM api_calls")).toEqual([{ n: 2 }]);
  });

  test("a body that does not fit the schema goes to rejects and the run ends partial", async () => {
    const hostile = await api((res) =>
      sendJson(res, 200, {
        created_at: "2026-10-01T00:00:00Z",
        updated_at: "2026-10-01T00:00:00Z",
        monthly_api_credits_remaining: -5,
        monthly_api_credits_remaining_monetary_value: 1.25,
        stable_api_credits_remaining: 10,
        stable_api_credits_remaining_monetary_value: "0.1",
      }),
    );
    const { db, out } = await resources.workspace();
    const run = await exportOnce({
      baseUrl: hostile.url,
      token: "t",
      flags: { db, out, operations: false },
    });
    expect(run.exitCode).toBe(4);
    // A record that cannot be stored is a reject, as in every source: the source stored what it
    // could (nothing), and the reject makes the run partial.
    expect(run.summary.balance).toMatchObject({
      status: "stored",
      snapshots: 0,
      remaining_usd: null,
      rejected: 1,
    });
    expect(run.summary.warnings.join("\n")).toMatch(/credits balance could not be stored/);
    const [reject] = await queryDb(db, "SELECT reason, raw_json FROM rejects");
    expect(String(reject?.reason)).toMatch(/monthly_api_credits_remaining/);
    expect(JSON.parse(String(reject?.raw_json)).monthly_api_credits_remaining).toBe(-5);
    expect(await queryDb(db, "SELECT count(*)::INTEGER AS n FROM api_calls")).toEqual([{ n: 2 }]);
  });

  test("credits at zero: the run's line and the report say used up, never a burn of 0", async () => {
    const hostile = await api((res) =>
      sendJson(
        res,
        200,
        '{"created_at":"2026-10-01T00:00:00Z","updated_at":"2026-10-01T00:00:00Z","monthly_api_credits_remaining":0,"monthly_api_credits_remaining_monetary_value":0,"stable_api_credits_remaining":0,"stable_api_credits_remaining_monetary_value":0}',
      ),
    );
    const { db, out } = await resources.workspace();
    const env = { ZOO_API_TOKEN: "hostile-token-balance", ZOO_HOST: hostile.url };
    // Two runs: the second snapshot pairs with the first, both at zero.
    for (let run = 0; run < 2; run++) {
      const result = await runCli(["export", "--db", db, "--out", out, "--no-operations"], {
        env,
      });
      expect(result.code).toBe(0);
      expect(result.stdout).toContain("credits left 0.000000 USD, used up (snapshot in balance_snapshots)");
    }
    const report = await runCli(["report", "--db", db], { env: {} });
    expect(report.code).toBe(0);
    expect(report.stdout).toMatch(/used up: none left at the snapshot of \d{4}-\d{2}-\d{2}/);
    // Two snapshots at zero are no measured burn: the rate comes from the calls.
    expect(report.stdout).not.toMatch(/nothing is being consumed|from balance snapshots/);
  });

  test("an exact balance with more digits than a micro-dollar is rounded half-even, like a price", async () => {
    const hostile = await api((res) =>
      sendJson(
        res,
        200,
        '{"created_at":"2026-10-01T00:00:00Z","updated_at":"2026-10-01T00:00:00Z","monthly_api_credits_remaining":3,"monthly_api_credits_remaining_monetary_value":0.0000125,"stable_api_credits_remaining":9007199254740991,"stable_api_credits_remaining_monetary_value":123456789012.345678,"subscription_details":{"modeling_app":{"name":"pro"}},"future_field":[1]}',
      ),
    );
    const { db, out } = await resources.workspace();
    const run = await exportOnce({
      baseUrl: hostile.url,
      token: "t",
      flags: { db, out, operations: false },
    });
    expect(run.exitCode).toBe(0);
    expect(
      await queryDb(
        db,
        `SELECT monthly_api_credits_remaining_monetary_value::VARCHAR AS monthly,
                stable_api_credits_remaining::VARCHAR AS stable_count,
                stable_api_credits_remaining_monetary_value::VARCHAR AS stable,
                subscription_details::VARCHAR AS details, extra::VARCHAR AS extra
         FROM balance_snapshots`,
      ),
    ).toEqual([
      {
        monthly: "0.000012",
        stable_count: "9007199254740991",
        // The double nearest 123456789012.345678 prints as 123456789012.34567: what the API sent.
        stable: "123456789012.345670",
        details: '{"modeling_app":{"name":"pro"}}',
        extra: '{"future_field":[1]}',
      },
    ]);
  });
});

test("an API failure on the balance after retries ends the run partial; the calls stay", async () => {
  const calls = [validCall(1)];
  const hostile = await startHostileApi((request, res) => {
    if (request.path === "/user/api-calls") {
      sendJson(
        res,
        200,
        request.query.get("page_token") === null ? pageBody(calls, "p1") : pageBody([], null),
      );
      return;
    }
    sendJson(res, 503, errorBody(503, "Service Unavailable"));
  });
  const { db, out, cleanup } = await tempWorkspace();
  try {
    const run = await exportOnce({
      baseUrl: hostile.url,
      token: "t",
      flags: { db, out, operations: false },
      maxAttempts: 2,
    });
    expect(run.exitCode).toBe(4);
    expect(run.summary.status).toBe("partial");
    expect(run.summary.balance).toMatchObject({
      status: "failed",
      snapshots: 0,
      message: expect.any(String),
    });
    expect(await queryDb(db, "SELECT count(*)::INTEGER AS n FROM api_calls")).toEqual([{ n: 1 }]);
  } finally {
    await cleanup();
    await hostile.close();
  }
});
