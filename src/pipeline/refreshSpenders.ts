import { notVisibleStatus } from "../api/notVisible.js";
import { scopedPath } from "../api/scope.js";
import { listAll } from "../extract/listAll.js";
import { storeSpenders } from "../load/spenderTables.js";
import { type CheckedItems, memberRows, type RefusedItem, tokenRows } from "../transform/spenderRows.js";
import type { ExportDeps, ExportOptions } from "./exportSettings.js";
import type { SpendersSummary } from "./runSummary.js";

/** Items per request: these listings are short, so one page usually holds them all. */
const PAGE_LIMIT = 100;

/**
 * Refreshes who holds the tokens the calls were made with: GET /user/api-tokens (the token's user's
 * own tokens, in both scopes) and, in org scope, GET /org/service-accounts and GET /org/members.
 * A listing the token may not read (403, or 404 without a payment or org) is a warning and is
 * skipped (status "skipped" when every listing was); any other failure stops the step, after storing
 * what was listed before it, and is returned so the run ends partial (status "failed").
 */
export async function refreshSpenders(
  deps: ExportDeps,
  options: ExportOptions,
  warn: (message: string) => void,
): Promise<{ fetched: SpendersSummary; failure?: unknown }> {
  const startedAt = deps.now().getTime();
  deps.progress.update({ phase: "fetching tokens and members" });
  const skippedListings: string[] = [];
  let listings = 0;
  const refused: RefusedItem[] = [];
  const list = async <T>(
    path: string,
    check: (items: unknown[]) => CheckedItems<T>,
  ): Promise<T[] | undefined> => {
    listings += 1;
    let items: unknown[];
    try {
      items = await listAll(deps.client, path, { limit: PAGE_LIMIT, signal: deps.signal });
    } catch (error) {
      const status = notVisibleStatus(error);
      if (status === undefined) throw error;
      warn(`GET ${path} answered ${status}: this token may not list it; skipped`);
      skippedListings.push(path);
      return undefined;
    }
    const checked = check(items);
    refused.push(...checked.refused);
    return checked.rows;
  };
  let stopped: unknown;
  const rows: Parameters<typeof storeSpenders>[1] = { refused, runId: options.runId };
  try {
    rows.apiTokens = await list("/user/api-tokens", (items) => tokenRows(items, "api_token"));
    if (options.scope === "org") {
      rows.serviceAccounts = await list(scopedPath("org", "service-accounts"), (items) =>
        tokenRows(items, "service_account"),
      );
      rows.members = await list(scopedPath("org", "members"), (items) =>
        memberRows(items, options.privacy.email, deps.secrets),
      );
    }
  } catch (error) {
    stopped = error;
  }
  await storeSpenders(deps.warehouse, rows, deps.now());
  if (refused.length > 0)
    warn(`${refused.length} token or member record(s) did not validate: see the rejects table`);
  const fetched: SpendersSummary = {
    status: "stored",
    api_tokens: rows.apiTokens?.length ?? 0,
    service_accounts: rows.serviceAccounts?.length ?? 0,
    org_members: rows.members?.length ?? 0,
    skipped_listings: skippedListings,
    rejected: refused.length,
    seconds: (deps.now().getTime() - startedAt) / 1000,
  };
  if (stopped !== undefined) {
    const reason = stopped instanceof Error ? stopped.message : String(stopped);
    return {
      fetched: { ...fetched, status: "failed", message: `tokens and members not all stored: ${reason}` },
      failure: stopped,
    };
  }
  if (skippedListings.length === listings) {
    const message = `tokens and members skipped: this token may not list ${skippedListings.join(", ")} (403/404)`;
    return { fetched: { ...fetched, status: "skipped", message } };
  }
  return { fetched };
}
