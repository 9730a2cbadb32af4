import { type SpenderTable, upsertSpenders } from "../../load/spenderTables.js";
import { counted } from "../../log/plural.js";
import type { CheckedItems, MemberRecord, TokenRecord } from "../../transform/spenderRows.js";
import type { DeclaredSource } from "../declaredSource.js";
import type { SourceStatus } from "../outcome.js";
import type { RunContext } from "../runContext.js";
import type { RunSummary } from "../runSummary.js";
import type { CheckedItem, Listing } from "./listingSource.js";
import { type ListingDetails, runListing } from "./runListing.js";

/** Items per page of the token and member listings (the API serves up to 10,000). */
const PAGE_LIMIT = 1000;

/**
 * A listing of who holds the tokens (GET /user/api-tokens, /org/service-accounts, /org/members):
 * items checked one by one, keyed by id, upserted into `table` with the run's clock as last seen.
 */
export function spenderListing<Row extends TokenRecord | MemberRecord>(
  context: RunContext,
  spec: {
    path: string;
    table: SpenderTable;
    noun: string;
    check: (items: readonly unknown[]) => CheckedItems<Row>;
  },
): Listing<Row, number> {
  const { deps } = context;
  const seenAt = deps.now();
  return {
    reads: `GET ${spec.path}`,
    noun: spec.noun,
    page: (pageToken, signal) => deps.client.listPage(spec.path, { limit: PAGE_LIMIT, pageToken, signal }),
    check: (item): CheckedItem<Row> => {
      const { rows, refused } = spec.check([item]);
      const row = rows[0];
      if (row !== undefined) return { ok: true, key: row.id, row };
      return {
        ok: false,
        reject: refused[0] ?? { record_id: null, reason: "not checked", raw_json: "null" },
      };
    },
    write: async (rows) => {
      await upsertSpenders(deps.warehouse, spec.table, rows, seenAt);
      return rows.length;
    },
  };
}

/**
 * A listing of who holds the tokens as a declared source: merged on id, skipped on 403/404. The
 * three listings make one part of the summary (RunSummary.spenders), each adding to it in the order
 * they ran: failed when one failed, skipped when every one that ran was skipped, else stored.
 */
export function spenderSource<Row extends TokenRecord | MemberRecord>(spec: {
  name: string;
  path: string;
  table: SpenderTable;
  noun: string;
  check: (context: RunContext) => (items: readonly unknown[]) => CheckedItems<Row>;
}): DeclaredSource<ListingDetails<number>> {
  return {
    name: spec.name,
    reads: `GET ${spec.path}`,
    lands: spec.table,
    disposition: "merge on `id`",
    optional: true,
    phase: "account",
    progress: `fetching ${spec.name}`,
    run: (context) =>
      runListing(spec.name, spenderListing(context, { ...spec, check: spec.check(context) }), context),
    summarize: (summary, { status, counts, seconds, message, details }) => {
      const part = summary.spenders ?? {
        // What the first listing did replaces it.
        status: "skipped",
        api_tokens: 0,
        service_accounts: 0,
        org_members: 0,
        skipped_listings: [],
        rejected: 0,
        seconds: 0,
      };
      const either = (wanted: SourceStatus) => part.status === wanted || status === wanted;
      const messages = [part.message, message].filter((text) => text !== undefined);
      summary.spenders = {
        ...part,
        status: either("failed") ? "failed" : either("stored") ? "stored" : "skipped",
        [spec.table]: details?.rows ?? 0,
        skipped_listings: [...part.skipped_listings, ...(status === "skipped" ? [spec.path] : [])],
        rejected: part.rejected + counts.rejected,
        seconds: part.seconds + seconds,
        ...(messages.length === 0 ? {} : { message: messages.join("; ") }),
      };
    },
  };
}

/** The three listings' one line of the printed summary. */
export function describeSpenders({ spenders }: RunSummary): string[] {
  if (spenders === undefined) return [];
  const { api_tokens, service_accounts, org_members } = spenders;
  return [
    `  who spent it: ${counted(api_tokens, "API token")}, ${counted(service_accounts, "service account")}, ${counted(org_members, "org member")} listed`,
  ];
}
