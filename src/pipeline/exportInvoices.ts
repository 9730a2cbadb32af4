import { notVisibleStatus } from "../api/notVisible.js";
import { paginate } from "../extract/paginate.js";
import { PaginationAnomaly } from "../extract/paginationAnomaly.js";
import { saveInvoices } from "../load/invoiceStore.js";
import { type InvoiceReject, type InvoiceRows, invoiceRows } from "../transform/invoiceRow.js";
import { applyPolicy } from "../transform/privacy.js";
import type { ExportDeps, ExportOptions } from "./exportSettings.js";
import type { InvoicesSummary } from "./runSummary.js";

/** Invoices per page: an account has one a month, so a page or two is the whole history. */
const PAGE_LIMIT = 100;
/** Pages the step reads at most: ample for decades of monthly invoices, and a stop for a loop. */
const MAX_PAGES = 1000;

/**
 * Lists the account's invoices (GET /user/payment/invoices or /org/payment/invoices, by scope) and
 * stores them with their lines, all in one transaction after the last page: invoices are few, and
 * a half-stored listing would reconcile against lines that are not all there. A 403 or 404 (not an
 * org admin, no payment account) skips the step with a warning and leaves the run's status alone;
 * any other failure is reported and ends the run partial, after the calls are committed.
 */
export async function exportInvoices(
  deps: ExportDeps,
  options: ExportOptions,
  warn: (message: string) => void,
): Promise<InvoicesSummary> {
  const startedAt = deps.now().getTime();
  const seconds = () => (deps.now().getTime() - startedAt) / 1000;
  const empty = { invoices: 0, lines: 0, new_invoices: 0, rejected: 0 };
  deps.progress.update({ phase: "fetching invoices" });
  const stored: InvoiceRows[] = [];
  const rejects: InvoiceReject[] = [];
  const hash = (value: string) => deps.secrets.hash(value);
  const customerEmail = (email: string) => applyPolicy(email, options.privacy.email, hash);
  try {
    const pages = paginate(
      (pageToken, _onNextPageSeen, signal) =>
        deps.client.listInvoices({ scope: options.scope, limit: PAGE_LIMIT, pageToken, signal }),
      null,
      { maxPages: MAX_PAGES },
    );
    for await (const { page } of pages) {
      for (const item of page.items) {
        const result = invoiceRows(item, customerEmail);
        if (result.ok) stored.push(result.rows);
        else rejects.push(result.reject);
      }
    }
    const saved = await saveInvoices(
      deps.warehouse,
      { runId: options.runId, now: deps.now() },
      stored,
      rejects,
    );
    if (saved.rejected > 0)
      warn(`${saved.rejected} invoice(s) did not validate and went to the rejects table with the reason`);
    return { status: "stored", ...saved, seconds: seconds() };
  } catch (error) {
    const status = notVisibleStatus(error);
    if (status !== undefined) {
      const message = `invoices skipped: the API answered ${status} to the ${options.scope} invoices listing (${status === 403 ? "not an org admin" : "no payment account"}); the calls are exported all the same`;
      warn(message);
      return { status: "skipped", ...empty, seconds: seconds(), message };
    }
    const reason = error instanceof Error ? error.message : String(error);
    const message = `invoices not stored: ${error instanceof PaginationAnomaly ? "the listing's pages did not advance: " : ""}${reason}`;
    warn(message);
    return { status: "failed", ...empty, rejected: rejects.length, seconds: seconds(), message };
  }
}
