import { type InvoiceBatchCounts, replaceInvoices } from "../load/invoiceStore.js";
import { Spool } from "../load/spool.js";
import { counted } from "../log/plural.js";
import { type InvoiceRows, invoiceRows } from "../transform/invoiceRow.js";
import { applyPolicy } from "../transform/privacy.js";
import type { DeclaredSource } from "./declaredSource.js";
import type { Listing } from "./listing/listingSource.js";
import { type ListingDetails, runListing } from "./listing/runListing.js";
import type { RunContext } from "./runContext.js";
import { accountStep } from "./runSummary.js";

/** Invoices per page: an account has about one a month, but each may carry hundreds of lines. */
const PAGE_LIMIT = 100;

/**
 * The account's invoices with their lines (GET /user/payment/invoices or /org/payment/invoices, by
 * scope), amounts read from the JSON text itself, never a double. Each invoice replaces its stored
 * copy and lines; one no longer listed stays as last seen. A 403 (not an org admin) or 404 (no
 * payment account) skips it.
 */
export const invoices: DeclaredSource<ListingDetails<InvoiceBatchCounts>> = {
  name: "invoices",
  reads: "GET /{user,org}/payment/invoices",
  lands: "invoices, invoice_lines",
  disposition: "replace per invoice (its lines with it)",
  optional: true,
  phase: "account",
  progress: "fetching invoices",
  run: (context) => runListing("invoices", invoiceListing(context), context),
  summarize: (summary, outcome) => {
    summary.invoices = { ...accountStep(outcome), ...invoiceTotals(outcome.details) };
  },
  describe: ({ invoices: step }) =>
    step?.status === "stored"
      ? [
          `  ${counted(step.invoices, "invoice")} stored (${step.new_invoices} new), ${counted(step.lines, "invoice line")}, ${step.rejected} rejected${step.rejected > 0 ? " (see the rejects table)" : ""}`,
        ]
      : [],
};

function invoiceListing(context: RunContext): Listing<InvoiceRows, InvoiceBatchCounts> {
  const { deps, options } = context;
  const hash = (value: string) => deps.secrets.hash(value);
  const customerEmail = (email: string) => applyPolicy(email, options.privacy.email, hash);
  const spool = new Spool(options.spoolDir, options.runId);
  return {
    reads: `GET /${options.scope}/payment/invoices`,
    noun: "invoice",
    page: (pageToken, signal) =>
      deps.client.listInvoices({ scope: options.scope, limit: PAGE_LIMIT, pageToken, signal }),
    check: (item) => {
      const result = invoiceRows(item, customerEmail);
      if (result.ok) return { ok: true, key: result.rows.id, row: result.rows };
      const { recordId, reason, rawJson } = result.reject;
      return { ok: false, reject: { record_id: recordId, reason, raw_json: rawJson } };
    },
    write: (rows) => replaceInvoices(deps.warehouse, spool, options.runId, rows),
    weight: (row) => 1 + row.lines.length,
  };
}

/** What the invoices source stored, summed over its batches. */
function invoiceTotals(details: ListingDetails<InvoiceBatchCounts> | undefined): InvoiceBatchCounts {
  const totals: InvoiceBatchCounts = { invoices: 0, lines: 0, new_invoices: 0 };
  for (const batch of details?.batches ?? []) {
    totals.invoices += batch.invoices;
    totals.lines += batch.lines;
    totals.new_invoices += batch.new_invoices;
  }
  return totals;
}
