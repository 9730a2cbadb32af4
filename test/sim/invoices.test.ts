import { afterEach, describe, expect, test } from "vitest";
import { parseWithNumberTexts } from "../../src/api/exactJson.js";
import { type Invoice, InvoiceSchema } from "../../src/api/schemas/index.js";
import {
  createDataset,
  type RunningSimulator,
  type SimulatorOptions,
  startSimulator,
} from "../../src/sim/index.js";

const OPTIONS = { seed: 11, calls: 6000, days: 120, users: 4 } satisfies SimulatorOptions;

let sim: RunningSimulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

/** Exact decimal text ("12.3", "-0.5") as micro-dollars, by string work only. */
function micros(decimal: string): bigint {
  const negative = decimal.startsWith("-");
  const [whole = "0", fraction = ""] = decimal.replace(/^-/, "").split(".");
  const value = BigInt(whole) * 1_000_000n + BigInt(fraction.padEnd(6, "0"));
  return negative ? -value : value;
}

interface Listing {
  invoices: Invoice[];
  pages: number;
}

/** Every invoice of a listing, paged with plain HTTP and `limit`, each checked against the spec's schema. */
async function listAll(
  server: RunningSimulator,
  path: string,
  token: string,
  limit: number,
): Promise<Listing> {
  const invoices: Invoice[] = [];
  let pageToken: string | null = null;
  for (let pages = 1; pages < 100; pages++) {
    const query: string = pageToken === null ? `limit=${limit}` : `limit=${limit}&page_token=${pageToken}`;
    const response = await fetch(`${server.url}${path}?${query}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.status).toBe(200);
    const body = parseWithNumberTexts(await response.text()) as {
      items: unknown[];
      next_page: string | null;
    };
    expect(body.items.length).toBeLessThanOrEqual(limit);
    for (const item of body.items) invoices.push(InvoiceSchema.parse(item));
    if (body.items.length === 0) {
      expect(body.next_page).toBeNull();
      return { invoices, pages };
    }
    expect(typeof body.next_page).toBe("string");
    pageToken = body.next_page;
  }
  throw new Error("the listing did not end");
}

/** Price per invoice item of the calls the users listed at the simulator's start, in micro-dollars. */
function callCostPerItem(options: SimulatorOptions, users: readonly number[]): Map<string, bigint> {
  const dataset = createDataset(options);
  const sums = new Map<string, bigint>();
  for (const u of users) {
    for (const call of dataset.visibleCallsForUser(u, dataset.initialNow)) {
      const item = call.stripe_invoice_item_id;
      if (item === undefined || item === "" || call.price === null) continue;
      sums.set(item, (sums.get(item) ?? 0n) + micros(String(call.price)));
    }
  }
  return sums;
}

describe("simulated invoices", () => {
  test("a personal account's lines are the exact sums of its calls' prices per item and month", async () => {
    sim = await startSimulator(OPTIONS);
    const user = sim.users[0];
    if (user === undefined || user.orgId !== null) throw new Error("user 0 should have no org");
    const { invoices, pages } = await listAll(sim, "/user/payment/invoices", user.token, 1);
    // Invoices of closed, fully billed months: 120 days reach back four or five months.
    expect(invoices.length).toBeGreaterThanOrEqual(2);
    expect(pages).toBe(invoices.length + 1);
    const sums = callCostPerItem(OPTIONS, [0]);
    const items = new Set<string>();
    for (const invoice of invoices) {
      expect(invoice.status).toBe("paid");
      expect(invoice.lines.length).toBe(1);
      let linesTotal = 0n;
      for (const line of invoice.lines) {
        const item = line.invoice_item ?? "";
        expect(item).toMatch(/^ii_1[0-9A-Za-z]{24}$/);
        items.add(item);
        expect(micros(line.amount)).toBe(sums.get(item));
        linesTotal += micros(line.amount);
      }
      expect(micros(invoice.total)).toBe(linesTotal);
      expect(micros(invoice.amount_paid)).toBe(linesTotal);
    }
    expect(items.size).toBe(invoices.length);
    // The items not invoiced are those of months still open or settling: the newest ones.
    const uninvoiced = [...sums.keys()].filter((item) => !items.has(item));
    expect(uninvoiced.length).toBeGreaterThanOrEqual(1);
    expect(uninvoiced.length).toBeLessThanOrEqual(2);
  });

  test("org members' calls are billed to the org, and the org lists them", async () => {
    sim = await startSimulator(OPTIONS);
    const orgUser = sim.users.findIndex((user) => user.orgId !== null);
    const member = sim.users[orgUser];
    if (member === undefined) throw new Error("no user in an org");
    const members = sim.users.flatMap((user, u) => (user.orgId === member.orgId ? [u] : []));
    const { invoices } = await listAll(sim, "/org/payment/invoices", member.token, 100);
    expect(invoices.length).toBeGreaterThanOrEqual(2);
    const sums = callCostPerItem(OPTIONS, members);
    for (const invoice of invoices)
      for (const line of invoice.lines) expect(micros(line.amount)).toBe(sums.get(line.invoice_item ?? ""));
    // A member has no personal invoices; the org's are its admin's: a user in no org has no org
    // (404), a member who is not the admin is refused (403), as on the other org routes.
    expect((await listAll(sim, "/user/payment/invoices", member.token, 100)).invoices).toEqual([]);
    const url = sim.url;
    const statusFor = async (token: string | undefined) =>
      (await fetch(`${url}/org/payment/invoices`, { headers: { authorization: `Bearer ${token}` } })).status;
    expect(await statusFor(sim.users[0]?.token)).toBe(404);
    const nonAdmin = sim.users.find((user) => user.orgId === member.orgId && user.orgRole === "member");
    expect(nonAdmin).toBeDefined();
    expect(await statusFor(nonAdmin?.token)).toBe(403);
  });

  test("invoiceDisagreement adds exactly $1.23 to exactly one line", async () => {
    sim = await startSimulator({ ...OPTIONS, invoiceDisagreement: true });
    const token = sim.users[0]?.token ?? "";
    const { invoices } = await listAll(sim, "/user/payment/invoices", token, 100);
    const sums = callCostPerItem(OPTIONS, [0]);
    const differences = invoices
      .flatMap((invoice) => invoice.lines)
      .map((line) => micros(line.amount) - (sums.get(line.invoice_item ?? "") ?? 0n))
      .filter((difference) => difference !== 0n);
    expect(differences).toEqual([1_230_000n]);
  });

  test("a bad limit or page token is a 400, and no token a 401", async () => {
    sim = await startSimulator(OPTIONS);
    const token = sim.users[0]?.token ?? "";
    const auth = { headers: { authorization: `Bearer ${token}` } };
    expect((await fetch(`${sim.url}/user/payment/invoices?limit=0`, auth)).status).toBe(400);
    expect((await fetch(`${sim.url}/user/payment/invoices?page_token=%25%25`, auth)).status).toBe(400);
    expect((await fetch(`${sim.url}/user/payment/invoices`)).status).toBe(401);
  });
});
