import { afterEach, describe, expect, test } from "vitest";
import type { ExportFlags } from "../../src/config/exportConfig.js";
import { type RunningSimulator, type SimulatorOptions, startSimulator } from "../../src/sim/index.js";
import { listAllCalls, toMicros } from "../helpers/apiTruth.js";
import { runCli } from "../helpers/cli.js";
import { exportOnce, queryDb, tempWorkspace } from "../helpers/exportHarness.js";

/** Four months of calls of one personal account, settled well before the exporter's clock. */
const SIM: SimulatorOptions = {
  seed: 21,
  calls: 4000,
  days: 120,
  users: 2,
  now: new Date("2026-06-20T00:00:00Z"),
};

let sim: RunningSimulator | undefined;
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of cleanups.splice(0)) await close();
  await sim?.close();
  sim = undefined;
});

async function exportFrom(options: SimulatorOptions) {
  sim = await startSimulator(options);
  const workspace = await tempWorkspace();
  cleanups.push(workspace.cleanup);
  const token = sim.users[0]?.token ?? "";
  const flags: ExportFlags = { db: workspace.db, out: workspace.out, limit: 1000, operations: false };
  const { summary, exitCode } = await exportOnce({ baseUrl: sim.url, token, flags });
  return { summary, exitCode, token, db: workspace.db, url: sim.url };
}

type Json = Record<string, unknown>;

/** Every invoice the API lists, paged with plain fetch and two per page (independent of zoo-usage). */
async function apiInvoices(baseUrl: string, token: string): Promise<Json[]> {
  const invoices: Json[] = [];
  let pageToken: string | null = null;
  for (let requests = 0; requests < 1000; requests++) {
    const url = new URL("/user/payment/invoices", baseUrl);
    url.searchParams.set("limit", "2");
    if (pageToken !== null) url.searchParams.set("page_token", pageToken);
    const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
    const body = (await response.json()) as { items: Json[]; next_page: string | null };
    invoices.push(...body.items);
    if (body.next_page === null) return invoices;
    pageToken = body.next_page;
  }
  throw new Error("the invoices listing did not end");
}

/** Money as micro-dollars, from a JSON number (the simulator's have at most 6 decimals) or DECIMAL text. */
function money(value: unknown): bigint {
  return toMicros(String(value));
}

/** One order for lines from both sides: by invoice id (code units), then line number. */
function byLine(a: Json, b: Json): number {
  if (a.invoice_id !== b.invoice_id) return String(a.invoice_id) < String(b.invoice_id) ? -1 : 1;
  return Number(a.line_number) - Number(b.line_number);
}

const MONEY = [
  "amount_due",
  "amount_paid",
  "amount_refunded",
  "amount_remaining",
  "subtotal",
  "tax",
  "total",
];
const TEXT = [
  "id",
  "number",
  "status",
  "currency",
  "billing_reason",
  "collection_method",
  "customer_email",
  "customer_id",
  "default_payment_method",
  "description",
  "pdf",
  "receipt_number",
  "refund_status",
  "statement_descriptor",
  "subscription_id",
  "url",
];

describe("invoices in the warehouse", () => {
  test("equal the API's, field by field, money exact, lines in order", async () => {
    const { summary, exitCode, token, db, url } = await exportFrom(SIM);
    expect([summary.status, exitCode]).toEqual(["completed", 0]);
    const api = await apiInvoices(url, token);
    expect(api.length).toBeGreaterThanOrEqual(3);
    const lineCount = api.reduce((n, invoice) => n + (invoice.lines as Json[]).length, 0);
    expect(summary.invoices).toMatchObject({
      status: "stored",
      invoices: api.length,
      lines: lineCount,
      new_invoices: api.length,
      rejected: 0,
    });
    const rows = await queryDb(
      db,
      `SELECT *, epoch_us(created_at) AS created_us, metadata::VARCHAR AS metadata_text,
         ${MONEY.map((column) => `${column}::VARCHAR AS ${column}_text`).join(", ")}
       FROM invoices ORDER BY id`,
    );
    expect(rows.map((row) => row.id)).toEqual(api.map((invoice) => invoice.id).sort());
    for (const invoice of api) {
      const row = rows.find((candidate) => candidate.id === invoice.id) ?? {};
      for (const column of TEXT) expect([column, row[column]]).toEqual([column, invoice[column] ?? null]);
      for (const column of MONEY)
        expect([column, money(row[`${column}_text`])]).toEqual([column, money(invoice[column])]);
      expect(BigInt(String(row.created_us))).toBe(BigInt(Date.parse(String(invoice.created_at))) * 1000n);
      expect(Number(row.attempt_count)).toBe(invoice.attempt_count);
      expect(row.attempted).toBe(invoice.attempted);
      expect(row.paid).toBe(invoice.paid);
      expect(JSON.parse(String(row.metadata_text))).toEqual(invoice.metadata);
      expect(row.discounts ?? null).toBeNull();
      expect(row.extra ?? null).toBeNull();
    }
    const lines = await queryDb(
      db,
      `SELECT invoice_id, line_number, id, amount::VARCHAR AS amount, currency, description, invoice_item,
         metadata::VARCHAR AS metadata
       FROM invoice_lines ORDER BY invoice_id, line_number`,
    );
    const expected = api
      .flatMap((invoice) =>
        (invoice.lines as Json[]).map((line, k) => ({
          invoice_id: invoice.id,
          line_number: k + 1,
          id: line.id,
          amount: money(line.amount),
          currency: line.currency,
          description: line.description,
          invoice_item: line.invoice_item,
          metadata: line.metadata,
        })),
      )
      .sort(byLine);
    expect(
      lines
        .map((line) => ({ ...line, amount: money(line.amount), metadata: JSON.parse(String(line.metadata)) }))
        .sort(byLine),
    ).toEqual(expected);
  });

  test("reconciliation: every line agrees, every priced call is explained, the classes add up exactly", async () => {
    const { token, db, url } = await exportFrom(SIM);
    const lines = await queryDb(
      db,
      "SELECT line_class, status, difference::VARCHAR AS difference FROM invoice_line_reconciliation",
    );
    expect(lines.length).toBeGreaterThanOrEqual(3);
    expect(lines.every((line) => line.status === "agrees" && money(line.difference) === 0n)).toBe(true);
    expect(await queryDb(db, "SELECT * FROM invoice_lines_without_calls")).toEqual([]);
    expect(await queryDb(db, "SELECT * FROM calls_not_invoiced")).toEqual([]);
    // Every priced call in exactly one class.
    const [classes] = await queryDb(
      db,
      `SELECT (SELECT count(*) FROM api_calls WHERE price_usd IS NOT NULL)::INTEGER AS priced,
         count(*)::INTEGER AS classed, count(DISTINCT id)::INTEGER AS ids FROM call_billing_class`,
    );
    expect(classes?.classed).toBe(classes?.priced);
    expect(classes?.ids).toBe(classes?.priced);
    // Per month: usage from the API's calls, invoiced from the API's lines (usage month = the month
    // before the invoice was made), and usage = invoiced + not billed + awaiting + unexplained.
    const usage = new Map<string, bigint>();
    for (const call of await listAllCalls(url, token)) {
      const month = `${call.created_at.slice(0, 7)}-01`;
      usage.set(month, (usage.get(month) ?? 0n) + (call.price === null ? 0n : money(call.price)));
    }
    const invoiced = new Map<string, bigint>();
    for (const invoice of await apiInvoices(url, token)) {
      const made = new Date(String(invoice.created_at));
      const month = new Date(Date.UTC(made.getUTCFullYear(), made.getUTCMonth() - 1, 1))
        .toISOString()
        .slice(0, 10);
      for (const line of invoice.lines as Json[])
        invoiced.set(month, (invoiced.get(month) ?? 0n) + money(line.amount));
    }
    const months = await queryDb(
      db,
      `SELECT strftime(month, '%Y-%m-%d') AS month, usage_cost_usd::VARCHAR AS usage,
         usage_lines::VARCHAR AS invoiced, invoiced_usage_usd::VARCHAR AS invoiced_usage,
         not_billed_usd::VARCHAR AS not_billed, awaiting_usd::VARCHAR AS awaiting,
         unexplained_usd::VARCHAR AS unexplained, status
       FROM monthly_reconciliation ORDER BY month`,
    );
    expect(months.map((row) => row.month)).toEqual([...usage.keys()].sort());
    for (const row of months) {
      const month = String(row.month);
      expect([month, money(row.usage), money(row.invoiced)]).toEqual([
        month,
        usage.get(month) ?? 0n,
        invoiced.get(month) ?? 0n,
      ]);
      expect(money(row.usage)).toBe(
        money(row.invoiced_usage) + money(row.not_billed) + money(row.awaiting) + money(row.unexplained),
      );
      expect([month, row.unexplained]).toEqual([month, "0.000000"]);
      // A month whose calls are all explained agrees, invoiced or paid by credits (no invoice then);
      // one with calls waiting for an invoice awaits it, and is no disagreement.
      const waiting = invoiced.has(month) ? "awaiting" : "not_invoiced";
      expect([month, row.status]).toEqual([month, money(row.awaiting) === 0n ? "agrees" : waiting]);
    }
    expect(months.some((row) => row.status === "not_invoiced")).toBe(true);
  });

  test("reconciliation finds exactly the planted disagreement, +$1.23 on one line", async () => {
    const { db } = await exportFrom({ ...SIM, invoiceDisagreement: true });
    const notAgreeing = await queryDb(
      db,
      `SELECT status, difference::VARCHAR AS difference, line_amount - calls_cost_usd = DECIMAL '1.23' AS exact
       FROM invoice_line_reconciliation WHERE status <> 'agrees'`,
    );
    expect(notAgreeing).toEqual([{ status: "differs", difference: "1.230000", exact: true }]);
    const months = await queryDb(
      db,
      `SELECT lines_difference::VARCHAR AS d, unexplained_usd::VARCHAR AS u
       FROM monthly_reconciliation WHERE status = 'differs'`,
    );
    expect(months).toEqual([{ d: "1.230000", u: "0.000000" }]);
  });

  test("a second run replaces the invoices instead of adding to them", async () => {
    const { db, token, url } = await exportFrom(SIM);
    const flags: ExportFlags = { db, out: `${db}.out`, limit: 1000, operations: false };
    const { summary: again } = await exportOnce({ baseUrl: url, token, flags });
    expect(again.invoices?.new_invoices).toBe(0);
    const [counts] = await queryDb(
      db,
      "SELECT (SELECT count(*) FROM invoices) AS invoices, (SELECT count(DISTINCT id) FROM invoices) AS ids, (SELECT count(*) FROM invoice_lines) AS lines",
    );
    expect(Number(counts?.invoices)).toBe(Number(counts?.ids));
    expect(Number(counts?.lines)).toBe(again.invoices?.lines);
  });
});

describe("the CLI", () => {
  test("export --json reports the invoices; report --json has them beside the spend", async () => {
    sim = await startSimulator({ ...SIM, invoiceDisagreement: true });
    const workspace = await tempWorkspace();
    cleanups.push(workspace.cleanup);
    const env = { ZOO_API_TOKEN: sim.users[0]?.token ?? "", ZOO_HOST: sim.url };
    const exported = await runCli(
      ["export", "--db", workspace.db, "--out", workspace.out, "--no-operations", "--json"],
      { env },
    );
    expect(exported.code, exported.stderr).toBe(0);
    const summary = JSON.parse(exported.stdout) as { invoices?: { status: string; invoices: number } };
    expect(summary.invoices?.status).toBe("stored");
    expect(summary.invoices?.invoices).toBeGreaterThanOrEqual(3);
    const report = await runCli(["report", "--db", workspace.db, "--json"], { env: {} });
    expect(report.code, report.stderr).toBe(0);
    const figures = JSON.parse(report.stdout) as {
      invoices: { lines: { not_agreeing: { difference: string }[] } } | null;
    };
    expect(figures.invoices?.lines.not_agreeing.map((line) => line.difference)).toEqual(["1.230000"]);
  });
});
