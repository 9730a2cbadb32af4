import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { runCli } from "../helpers/cli.js";
import { simHistory } from "../helpers/simHistory.js";

/**
 * A shaped history through a real export: the simulator steps its usage x3 on 2026-10-15 and spikes
 * the second Sunday of each month x8; the check, judging nights of October through the CLI, follows
 * the step and finds the Sunday.
 */
let history: { db: string; cleanup: () => Promise<void> };

beforeAll(async () => {
  history = await simHistory({
    seed: 3,
    calls: 20_000,
    days: 90,
    stepDay: "2026-10-15",
    stepFactor: 3,
    spikeWeekday: 0,
    spikeFactor: 8,
  });
});

afterAll(async () => {
  await history.cleanup();
});

const night = (now: string, ...rules: string[]) =>
  runCli(["check", "--db", history.db, "--json", "--now", now, ...rules]).then((result) => ({
    code: result.code,
    alerts: result.stdout
      .trim()
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => JSON.parse(line)),
  }));

describe("a shaped export", () => {
  test("the forecast of October 25th follows the step of the 15th", async () => {
    const { alerts } = await night("2026-10-25", "--budget", "1");
    const forecast = alerts.find((alert) => alert.rule === "budget-forecast");
    expect(forecast?.note).toMatch(/usage changed on 2026-10-1[5-8], 24 days in/);
  });

  test("the night after the planted Sunday reports its spike, against the same weekday", async () => {
    const { code, alerts } = await night("2026-10-12", "--spike-factor", "4");
    expect(code).toBe(1);
    expect(alerts).toEqual([expect.objectContaining({ rule: "spike", period: "2026-10-11" })]);
    expect(alerts[0]?.note).toMatch(/\(median of 4 Sundays\), x4$|\(the forecast of the day\), x4$/);
  });

  test.each([
    [["--spike-weekday", "funday"], "--spike-weekday"],
    [["--step-factor", "0"], "--step-factor"],
    [["--lognormal-noise", "-1"], "--lognormal-noise"],
  ])("sim %j is refused naming the flag, before the simulator starts", async (flags, named) => {
    const result = await runCli(["sim", ...flags]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(named);
  });
});
