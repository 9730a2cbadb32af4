import type { InvoiceBatchCounts } from "../load/invoiceStore.js";
import { apiTokens } from "../sources/apiTokens.js";
import type { BalanceDetails } from "../sources/balance.js";
import { invoiceTotals } from "../sources/invoices.js";
import type { ListingDetails } from "../sources/listing/runListing.js";
import { orgMembers } from "../sources/orgMembers.js";
import type { SourceOutcome } from "../sources/outcome.js";
import { serviceAccounts } from "../sources/serviceAccounts.js";
import type { AccountStepSummary, BalanceSummary, InvoicesSummary, SpendersSummary } from "./runSummary.js";

/** An outcome in the run summary's shape for the account sources (status, rejected, seconds, message). */
function stepOf(outcome: SourceOutcome): AccountStepSummary {
  return {
    status: outcome.status,
    rejected: outcome.counts.rejected,
    seconds: outcome.seconds,
    ...(outcome.message === undefined ? {} : { message: outcome.message }),
  };
}

/** The sources of who holds the tokens, in the summary's order. */
const SPENDER_SOURCES = [apiTokens, serviceAccounts, orgMembers] as const;

/**
 * Who holds the tokens, the three listings as one summary (RunSummary.spenders): failed when one
 * failed, skipped when every one that ran was skipped, else stored.
 */
export function spendersSummary(outcomes: ReadonlyMap<string, SourceOutcome>): SpendersSummary | undefined {
  const ran = SPENDER_SOURCES.flatMap((source) => {
    const outcome = outcomes.get(source.name);
    return outcome === undefined ? [] : [{ source, outcome }];
  });
  if (ran.length === 0) return undefined;
  const rows = (source: (typeof SPENDER_SOURCES)[number]) =>
    (outcomes.get(source.name)?.details as ListingDetails<number> | undefined)?.rows ?? 0;
  const failed = ran.filter(({ outcome }) => outcome.status === "failed");
  const skipped = ran.filter(({ outcome }) => outcome.status === "skipped");
  const status = failed.length > 0 ? "failed" : skipped.length === ran.length ? "skipped" : "stored";
  const messages = [...failed, ...skipped].flatMap(({ outcome }) =>
    outcome.message === undefined ? [] : [outcome.message],
  );
  return {
    status,
    api_tokens: rows(apiTokens),
    service_accounts: rows(serviceAccounts),
    org_members: rows(orgMembers),
    skipped_listings: skipped.map(({ source }) => source.reads.replace(/^GET /, "")),
    rejected: ran.reduce((sum, { outcome }) => sum + outcome.counts.rejected, 0),
    seconds: ran.reduce((sum, { outcome }) => sum + outcome.seconds, 0),
    ...(messages.length === 0 ? {} : { message: messages.join("; ") }),
  };
}

export function invoicesSummary(outcome: SourceOutcome | undefined): InvoicesSummary | undefined {
  if (outcome === undefined) return undefined;
  return {
    ...stepOf(outcome),
    ...invoiceTotals(outcome.details as ListingDetails<InvoiceBatchCounts> | undefined),
  };
}

export function balanceSummary(outcome: SourceOutcome | undefined): BalanceSummary | undefined {
  if (outcome === undefined) return undefined;
  const details = outcome.details as BalanceDetails | undefined;
  const remaining = details?.remaining_usd ?? null;
  return { ...stepOf(outcome), snapshots: remaining === null ? 0 : 1, remaining_usd: remaining };
}
