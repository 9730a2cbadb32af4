import { expect } from "vitest";
import { JsonNumberText, parseWithNumberTexts } from "../../src/api/exactJson.js";
import { type Invoice, InvoiceSchema } from "../../src/api/schemas/index.js";
import {
  type ApiCallRecord,
  createDataset,
  type RunningSimulator,
  type SimulatorOptions,
} from "../../src/sim/index.js";

/** Exact decimal text ("12.3", "-0.5", or a parsed number's text) as micro-dollars, by string work only. */
export function micros(decimal: unknown): bigint {
  const text = decimal instanceof JsonNumberText ? decimal.text : String(decimal);
  const negative = text.startsWith("-");
  const [whole = "0", fraction = ""] = text.replace(/^-/, "").split(".");
  const value = BigInt(whole) * 1_000_000n + BigInt(fraction.padEnd(6, "0"));
  return negative ? -value : value;
}

/** Every invoice a listing serves, paged with plain HTTP, each checked against the spec's schema. */
export async function listInvoices(
  server: RunningSimulator,
  path: string,
  token: string,
): Promise<Invoice[]> {
  const invoices: Invoice[] = [];
  let pageToken: string | null = null;
  for (let pages = 0; pages < 1000; pages++) {
    const query: string = pageToken === null ? "limit=7" : `limit=7&page_token=${pageToken}`;
    const response = await fetch(`${server.url}${path}?${query}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.status).toBe(200);
    const body = parseWithNumberTexts(await response.text()) as {
      items: unknown[];
      next_page: string | null;
    };
    for (const item of body.items) invoices.push(InvoiceSchema.parse(item));
    if (body.next_page === null) return invoices;
    pageToken = body.next_page;
  }
  throw new Error("the invoice listing did not end");
}

/** The calls `users` see at the simulator's start, as listed (the simulated truth, without HTTP). */
export function callsOf(options: SimulatorOptions, users: readonly number[]): ApiCallRecord[] {
  const dataset = createDataset(options);
  return users.flatMap((u) => [...dataset.visibleCallsForUser(u, dataset.initialNow)]);
}

/** The calls' prices summed per invoice item they carry (calls paid by credits carry none). */
export function pricePerItem(calls: readonly ApiCallRecord[]): Map<string, bigint> {
  const sums = new Map<string, bigint>();
  for (const call of calls) {
    const item = call.stripe_invoice_item_id ?? "";
    if (item === "" || call.price === null) continue;
    sums.set(item, (sums.get(item) ?? 0n) + micros(call.price));
  }
  return sums;
}

/** The sum of an invoice's usage lines (those naming an invoice item) per item. */
export function linesPerItem(invoices: readonly Invoice[]): Map<string, bigint> {
  const sums = new Map<string, bigint>();
  for (const invoice of invoices)
    for (const line of invoice.lines) {
      const item = line.invoice_item ?? "";
      if (item !== "") sums.set(item, (sums.get(item) ?? 0n) + micros(line.amount));
    }
  return sums;
}
