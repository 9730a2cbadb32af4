import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { CustomerBalanceSchema } from "../../src/api/schemas/index.js";
import { creditsOf } from "../../src/sim/billingPlan.js";
import {
  createDataset,
  type RunningSimulator,
  type SimulatorOptions,
  startSimulator,
} from "../../src/sim/index.js";
import { toMicros } from "../helpers/apiTruth.js";

const DAY_MS = 86_400_000;
const OPTIONS = { seed: 8, calls: 1200, days: 3, users: 3 } satisfies SimulatorOptions;

/** The spec's CustomerBalance: its properties and the required ones. */
async function specBalance(): Promise<{ properties: string[]; required: string[] }> {
  const spec = JSON.parse(
    await readFile(path.resolve(import.meta.dirname, "../../spec/zoo-openapi.json"), "utf8"),
  ) as { components: { schemas: Record<string, { properties: object; required: string[] }> } };
  const schema = spec.components.schemas.CustomerBalance;
  if (schema === undefined) throw new Error("no CustomerBalance in the spec");
  return { properties: Object.keys(schema.properties), required: schema.required };
}

let sim: RunningSimulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

interface Reading {
  status: number;
  text: string;
  fields: Record<string, unknown>;
}

async function balance(
  server: RunningSimulator,
  scope: "user" | "org",
  token: string,
  query = "",
): Promise<Reading> {
  const response = await fetch(`${server.url}/${scope}/payment/balance${query}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const text = await response.text();
  return { status: response.status, text, fields: response.status === 200 ? JSON.parse(text) : {} };
}

/** Monthly plus stable credits left, in micro-dollars. */
function creditsLeft(reading: Reading): bigint {
  return (
    toMicros(String(reading.fields.monthly_api_credits_remaining_monetary_value)) +
    toMicros(String(reading.fields.stable_api_credits_remaining_monetary_value))
  );
}

/**
 * From the simulated truth (every call, listed yet or not): the priced spend of `users` billed in
 * (fromMs, toMs], split into what credits paid (no invoice item) and what is billable.
 */
function spendBetween(options: SimulatorOptions, users: readonly number[], fromMs: number, toMs: number) {
  const dataset = createDataset(options);
  const at = new Date(toMs);
  let credits = 0n;
  let billable = 0n;
  for (let i = 0; i < dataset.countCreated(at); i++) {
    if (!users.includes(dataset.userIndexOf(i))) continue;
    const call = dataset.callAt(i, at);
    const billedMs = Date.parse(call.updated_at);
    if (call.price === null || billedMs <= fromMs || call.completed_at === null) continue;
    const micros = toMicros(String(call.price));
    if (call.stripe_invoice_item_id === undefined || call.stripe_invoice_item_id === "") credits += micros;
    else billable += micros;
  }
  return { credits, billable };
}

describe("GET /user/payment/balance and /org/payment/balance", () => {
  test("answers a CustomerBalance as the spec defines it, counts and values the same credits", async () => {
    sim = await startSimulator(OPTIONS);
    const { properties, required } = await specBalance();
    const reading = await balance(sim, "user", sim.users[0]?.token ?? "");
    expect(reading.status).toBe(200);
    expect(CustomerBalanceSchema.safeParse(reading.fields).success).toBe(true);
    const keys = Object.keys(reading.fields);
    expect(keys.filter((key) => !properties.includes(key))).toEqual([]);
    expect(required.filter((key) => !keys.includes(key))).toEqual([]);
    // Credits count seconds: $10 of monthly credit is 1,205 of them (Zoo's per-second-billing post).
    expect(reading.fields.monthly_api_credits_remaining).toBe(1205);
    expect(String(reading.fields.monthly_api_credits_remaining_monetary_value)).toBe("10");
    const stable = toMicros(String(reading.fields.stable_api_credits_remaining_monetary_value));
    expect(BigInt(Number(reading.fields.stable_api_credits_remaining))).toBe(creditsOf(Number(stable)));
    const plan = reading.fields.subscription_details as { modeling_app: Record<string, unknown> };
    expect(plan.modeling_app.monthly_pay_as_you_go_api_credits).toBe(1205);
    expect(await balance(sim, "user", "not-a-token")).toMatchObject({ status: 401 });
  });

  test("credits fall by exactly the spend credits paid for, call by call, as the clock moves", async () => {
    sim = await startSimulator(OPTIONS);
    const token = sim.users[0]?.token ?? "";
    let before = await balance(sim, "user", token);
    let beforeMs = sim.clock.now().getTime();
    for (const step of [DAY_MS, DAY_MS / 2]) {
      sim.clock.advance(step);
      const after = await balance(sim, "user", token);
      const spend = spendBetween(OPTIONS, [0], beforeMs, sim.clock.now().getTime());
      // The runway grant covers these days: every call is paid by credits, none billable.
      expect(spend.credits).toBeGreaterThan(0n);
      expect(spend.billable).toBe(0n);
      expect(creditsLeft(before) - creditsLeft(after)).toBe(spend.credits);
      expect(after.fields.monthly_api_credits_refresh_at).toBe("2026-12-01T00:00:00Z");
      before = after;
      beforeMs = sim.clock.now().getTime();
    }
  });

  test("the org's balance answers any member, and pays for every member's calls", async () => {
    sim = await startSimulator(OPTIONS);
    const noOrg = sim.users.find((user) => user.orgId === null);
    const admin = sim.users.find((user) => user.orgRole === "admin");
    const member = sim.users.find((user) => user.orgRole === "member");
    if (noOrg === undefined || admin === undefined || member === undefined)
      throw new Error("the seed must give every kind of user");
    const refused = await balance(sim, "org", noOrg.token);
    expect(refused.status).toBe(404);
    expect(JSON.parse(refused.text)).toMatchObject({ error_code: "ObjectNotFound" });
    const byAdmin = await balance(sim, "org", admin.token);
    const byMember = await balance(sim, "org", member.token);
    expect(byMember.status).toBe(200);
    expect(byMember.fields).toEqual(byAdmin.fields);
    const members = sim.users.flatMap((user, u) => (user.orgId === admin.orgId ? [u] : []));
    const startMs = sim.clock.now().getTime();
    sim.clock.advance(DAY_MS);
    const spend = spendBetween(OPTIONS, members, startMs, sim.clock.now().getTime());
    expect(spend.credits).toBeGreaterThan(0n);
    expect(creditsLeft(byAdmin) - creditsLeft(await balance(sim, "org", member.token))).toBe(spend.credits);
  });

  test("total_due only with include_total_due=true: the drafts, open and uncollectible invoices", async () => {
    const options = { seed: 5, calls: 4000, days: 100, users: 2, subscription: true, invoiceStatuses: true };
    sim = await startSimulator(options);
    const token = sim.users[0]?.token ?? "";
    expect((await balance(sim, "user", token)).fields.total_due).toBeNull();
    const response = await fetch(`${sim.url}/user/payment/invoices?limit=100`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const { items } = (await response.json()) as { items: { status: string; amount_remaining: number }[] };
    let owed = 0n;
    for (const invoice of items)
      if (["draft", "open", "uncollectible"].includes(invoice.status))
        owed += toMicros(String(invoice.amount_remaining));
    // The draft holds at least the month's subscription line.
    expect(owed).toBeGreaterThanOrEqual(20_000_000n);
    const due = await balance(sim, "user", token, "?include_total_due=true");
    expect(toMicros(String(due.fields.total_due))).toBe(owed);
  });

  test("a simulator started mid-month shows a runway: burn within 2x of the day's spend, days left", async () => {
    const options = { seed: 1, calls: 100_000, days: 90, users: 4, now: new Date("2026-11-18T09:30:00Z") };
    sim = await startSimulator(options);
    const token = sim.users[0]?.token ?? "";
    const first = await balance(sim, "user", token);
    const startMs = sim.clock.now().getTime();
    sim.clock.advance(DAY_MS);
    const second = await balance(sim, "user", token);
    const burn = creditsLeft(first) - creditsLeft(second);
    const spend = spendBetween(options, [0], startMs, startMs + DAY_MS);
    const daySpend = spend.credits + spend.billable;
    expect(daySpend).toBeGreaterThan(0n);
    expect(burn * 2n).toBeGreaterThanOrEqual(daySpend);
    expect(burn).toBeLessThanOrEqual(daySpend * 2n);
    // A runway of some days: what is left lasts at least three more days at that burn.
    expect(creditsLeft(second)).toBeGreaterThanOrEqual(burn * 3n);
  });
});
