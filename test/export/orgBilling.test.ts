import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type RunningSimulator, type SimulatorOptions, startSimulator } from "../../src/sim/index.js";
import { toMicros } from "../helpers/apiTruth.js";
import { exportOnce, queryDb, tempWorkspace } from "../helpers/exportHarness.js";

/**
 * The organisation's whole picture in one org-scope export: the members' calls, the org's invoices
 * and credits, and who spent it, all agreeing with the API and with each other.
 */
const SIM: SimulatorOptions = {
  seed: 31,
  calls: 4000,
  days: 120,
  users: 4,
  now: new Date("2026-06-20T00:00:00Z"),
  seasonal: false,
};

let sim: RunningSimulator;
let db: string;
let cleanup: () => Promise<void>;
let adminToken: string;
let exitCode: number;

beforeAll(async () => {
  sim = await startSimulator(SIM);
  const admin = sim.users.find((user) => user.orgRole === "admin");
  if (admin === undefined) throw new Error("the seed must give an org with an admin");
  adminToken = admin.token;
  const workspace = await tempWorkspace();
  db = workspace.db;
  cleanup = workspace.cleanup;
  const run = await exportOnce({
    baseUrl: sim.url,
    token: adminToken,
    flags: { db, out: workspace.out, limit: 1000, operations: false, scope: "org" },
  });
  exitCode = run.exitCode;
});

afterAll(async () => {
  await cleanup?.();
  await sim?.close();
});

type Json = Record<string, unknown>;

/** A body of the API, read with plain fetch (independent of zoo-usage). */
async function apiGet(path: string): Promise<Json> {
  const response = await fetch(new URL(path, sim.url), {
    headers: { authorization: `Bearer ${adminToken}` },
  });
  expect(response.status).toBe(200);
  return (await response.json()) as Json;
}

/** Every invoice of the org, paged two at a time. */
async function orgInvoices(): Promise<Json[]> {
  const invoices: Json[] = [];
  let pageToken: string | null = null;
  for (let requests = 0; requests < 1000; requests++) {
    const query: string = pageToken === null ? "" : `&page_token=${encodeURIComponent(pageToken)}`;
    const body = await apiGet(`/org/payment/invoices?limit=2${query}`);
    invoices.push(...(body.items as Json[]));
    pageToken = body.next_page as string | null;
    if (pageToken === null) return invoices;
  }
  throw new Error("the invoices listing did not end");
}

/** The single DECIMAL total of a query, as micro-dollars. */
async function micros(sql: string): Promise<bigint> {
  const [row] = await queryDb(db, sql);
  return toMicros(String(row?.usd ?? "0"));
}

describe("an org-scope export: the organisation's calls, invoices, credits and spenders", () => {
  test("the run succeeds and holds the calls of several members", async () => {
    expect(exitCode).toBe(0);
    const members = await queryDb(db, "SELECT count(DISTINCT user_id)::INTEGER AS n FROM api_calls");
    expect(Number(members[0]?.n)).toBeGreaterThan(1);
  });

  test("the org's invoice lines are stored exactly and every one agrees with its calls", async () => {
    const api = await orgInvoices();
    const apiLines = api.flatMap((invoice) => invoice.lines as Json[]);
    expect(apiLines.length).toBeGreaterThan(0);
    const stored = await queryDb(
      db,
      "SELECT invoice_item, line_amount::VARCHAR AS amount, status FROM invoice_line_reconciliation",
    );
    expect(stored.length).toBe(apiLines.length);
    const storedByItem = new Map(stored.map((row) => [String(row.invoice_item), row]));
    for (const line of apiLines) {
      const row = storedByItem.get(String(line.invoice_item));
      expect(row, String(line.invoice_item)).toBeDefined();
      expect(toMicros(String(row?.amount))).toBe(toMicros(String(line.amount)));
      expect(row?.status).toBe("agrees");
    }
    // Months with an invoice: nothing unexplained, no usage line off by a micro-dollar.
    const months = await queryDb(
      db,
      `SELECT month::VARCHAR AS month, unexplained_usd::VARCHAR AS unexplained,
         lines_difference::VARCHAR AS difference, status
       FROM monthly_reconciliation WHERE invoice_lines > 0`,
    );
    expect(months.length).toBeGreaterThan(0);
    for (const month of months)
      expect([month.month, month.unexplained, month.difference, month.status]).toEqual([
        month.month,
        "0.000000",
        "0.000000",
        "agrees",
      ]);
  });

  test("the org's credits are snapshotted as the API gives them", async () => {
    const balance = await apiGet("/org/payment/balance");
    const [snapshot] = await queryDb(
      db,
      `SELECT scope,
         monthly_api_credits_remaining_monetary_value::VARCHAR AS monthly,
         stable_api_credits_remaining_monetary_value::VARCHAR AS stable
       FROM balance_snapshots`,
    );
    expect(snapshot?.scope).toBe("org");
    expect(toMicros(String(snapshot?.monthly))).toBe(
      toMicros(String(balance.monthly_api_credits_remaining_monetary_value)),
    );
    expect(toMicros(String(snapshot?.stable))).toBe(
      toMicros(String(balance.stable_api_credits_remaining_monetary_value)),
    );
  });

  test("spend per member and per token label each sum exactly to the total", async () => {
    const total = await micros("SELECT sum(price_usd)::VARCHAR AS usd FROM api_calls");
    expect(total).toBeGreaterThan(0n);
    expect(await micros("SELECT sum(cost_usd)::VARCHAR AS usd FROM cost_per_member")).toBe(total);
    expect(await micros("SELECT sum(cost_usd)::VARCHAR AS usd FROM cost_per_token_label")).toBe(total);
    const named = await queryDb(
      db,
      "SELECT count(*)::INTEGER AS n FROM cost_per_member WHERE member_known AND name IS NOT NULL",
    );
    expect(Number(named[0]?.n)).toBeGreaterThan(1);
  });
});
