import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { CustomerBalanceSchema } from "../../src/api/schemas/index.js";
import {
  MICROS_PER_CREDIT,
  MONTHLY_CREDIT_MICROS,
  STABLE_CREDIT_MICROS,
  usdText,
} from "../../src/sim/balance.js";
import { type RunningSimulator, startSimulator } from "../../src/sim/index.js";
import { listAllCalls, type TruthCall, toMicros } from "../helpers/apiTruth.js";

const DAY_MS = 86_400_000;

/** The spec's CustomerBalance: its properties and the required ones. */
async function specBalance(): Promise<{ properties: string[]; required: string[] }> {
  const spec = JSON.parse(
    await readFile(path.resolve(import.meta.dirname, "../../spec/zoo-openapi.json"), "utf8"),
  ) as { components: { schemas: Record<string, { properties: object; required: string[] }> } };
  const schema = spec.components.schemas.CustomerBalance;
  if (schema === undefined) throw new Error("no CustomerBalance in the spec");
  return { properties: Object.keys(schema.properties), required: schema.required };
}

/** The balance the model promises for these calls at `now`, from the listing alone. */
function expectedBalance(calls: readonly TruthCall[], now: Date) {
  const monthOf = (iso: string) => iso.slice(0, 7);
  const spend = new Map<string, bigint>();
  for (const call of calls) {
    if (call.price === null) continue;
    const micros = toMicros(call.price);
    if (micros > 0n)
      spend.set(monthOf(call.created_at), (spend.get(monthOf(call.created_at)) ?? 0n) + micros);
  }
  let stable = STABLE_CREDIT_MICROS;
  for (const month of spend.values())
    if (month > MONTHLY_CREDIT_MICROS) stable -= month - MONTHLY_CREDIT_MICROS;
  const current = spend.get(monthOf(now.toISOString())) ?? 0n;
  const monthly = current >= MONTHLY_CREDIT_MICROS ? 0n : MONTHLY_CREDIT_MICROS - current;
  return { monthly, stable: stable > 0n ? stable : 0n };
}

describe("GET /user/payment/balance and /org/payment/balance", () => {
  let sim: RunningSimulator;
  beforeAll(async () => {
    sim = await startSimulator({ seed: 8, calls: 1200, days: 3, users: 3 });
  });
  afterAll(async () => {
    await sim.close();
  });

  async function balance(
    scope: "user" | "org",
    token: string,
  ): Promise<{ status: number; body: unknown; text: string }> {
    const response = await fetch(`${sim.url}/${scope}/payment/balance`, {
      headers: { authorization: `Bearer ${token}` },
      signal: AbortSignal.timeout(5000),
    });
    const text = await response.text();
    return { status: response.status, body: response.status === 200 ? JSON.parse(text) : undefined, text };
  }

  test("answers a CustomerBalance as the spec defines it", async () => {
    const { properties, required } = await specBalance();
    const token = sim.users[0]?.token ?? "";
    const { status, body } = await balance("user", token);
    expect(status).toBe(200);
    expect(CustomerBalanceSchema.safeParse(body).success).toBe(true);
    const keys = Object.keys(body as object);
    expect(keys.filter((key) => !properties.includes(key))).toEqual([]);
    expect(required.filter((key) => !keys.includes(key))).toEqual([]);
    // The count and the value are the same credits: one credit is one cent.
    const fields = body as Record<string, number>;
    for (const kind of ["monthly", "stable"]) {
      const value = toMicros(String(fields[`${kind}_api_credits_remaining_monetary_value`]));
      expect(BigInt(fields[`${kind}_api_credits_remaining`] ?? -1)).toBe(value / MICROS_PER_CREDIT);
    }
    expect(await balance("user", "not-a-token")).toMatchObject({ status: 401 });
  });

  test("credits fall by exactly the priced spend of the user's calls as the clock moves", async () => {
    const token = sim.users[0]?.token ?? "";
    const readings = [];
    for (const step of [0, DAY_MS, DAY_MS / 2]) {
      sim.clock.advance(step);
      const calls = await listAllCalls(sim.url, token);
      const { body } = await balance("user", token);
      const fields = body as Record<string, number | string>;
      const expected = expectedBalance(calls, sim.clock.now());
      expect(String(fields.monthly_api_credits_remaining_monetary_value)).toBe(usdText(expected.monthly));
      expect(String(fields.stable_api_credits_remaining_monetary_value)).toBe(usdText(expected.stable));
      expect(fields.monthly_api_credits_refresh_at).toBe("2026-12-01T00:00:00Z");
      readings.push(expected.monthly + expected.stable);
    }
    // Spend happened between the readings: the credits went down each time.
    expect(readings[1]).toBeLessThan(readings[0] ?? 0n);
    expect(readings[2]).toBeLessThan(readings[1] ?? 0n);
  });

  test("the org balance is its admin's to read and pays for every member's calls", async () => {
    const noOrg = sim.users.find((user) => user.orgId === null);
    const admin = sim.users.find((user) => user.orgRole === "admin");
    if (noOrg === undefined || admin === undefined) throw new Error("the seed must give both kinds of user");
    // As on the other org routes: no org is a 404, a member who is not the admin a 403.
    const refused = await balance("org", noOrg.token);
    expect(refused.status).toBe(404);
    const nonAdmin = sim.users.find((user) => user.orgId === admin.orgId && user.orgRole === "member");
    expect(nonAdmin).toBeDefined();
    const forbidden = await balance("org", nonAdmin?.token ?? "");
    expect(forbidden.status).toBe(403);
    expect(forbidden.text).toMatch(/forbidden/);
    const members = sim.users.filter((user) => user.orgId === admin.orgId);
    const calls = (await Promise.all(members.map((member) => listAllCalls(sim.url, member.token)))).flat();
    const { status, body } = await balance("org", admin.token);
    expect(status).toBe(200);
    const expected = expectedBalance(calls, sim.clock.now());
    const fields = body as Record<string, number | string>;
    expect(String(fields.stable_api_credits_remaining_monetary_value)).toBe(usdText(expected.stable));
    expect(String(fields.monthly_api_credits_remaining_monetary_value)).toBe(usdText(expected.monthly));
  });
});
