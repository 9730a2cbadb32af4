import { isEarlier } from "../transform/apiCallRow.js";

/** A validated call as the guard sees it: its id and its created_at (RFC 3339). */
export interface CallKey {
  id: string;
  created_at: string;
}

/**
 * Checks that a scan in ascending created_at moves forward from page to page. Dropshot's keyset
 * token lists the items that sort after the last item of the previous page (zoo-api.md,
 * Pagination), so no call of a page is older than the newest call of the pages before it, and a page
 * brings calls the scan has not read. Ties in created_at are legal, in the server's order, and may
 * straddle a page boundary: the guard keeps the ids created at the newest instant so far (not every
 * id of the scan), which is all a tie needs.
 */
export class CursorGuard {
  private pages = 0;
  /** The newest created_at of the pages accepted so far. */
  private newest: string | undefined;
  /** The ids of the accepted calls created at `newest` exactly. */
  private idsAtNewest = new Set<string>();

  /** Why a page (its valid calls, in order) cannot follow the pages before it, or undefined. */
  check(calls: readonly CallKey[]): string | undefined {
    this.pages += 1;
    const newest = this.newest;
    if (newest === undefined || calls.length === 0) return undefined;
    const older = calls.find((call) => isEarlier(call.created_at, newest));
    if (older !== undefined) {
      return `the API's cursor went back: page ${this.pages} of this scan lists call ${older.id} created at ${older.created_at}, before ${newest}, the newest call of the pages before it`;
    }
    if (calls.every((call) => this.idsAtNewest.has(call.id) && !isEarlier(newest, call.created_at))) {
      return `page ${this.pages} of this scan lists only calls it has already read (first: ${calls[0]?.id}), so the cursor did not advance`;
    }
    return undefined;
  }

  /** Takes a checked page's calls as the new position. */
  accept(calls: readonly CallKey[]): void {
    for (const call of calls) {
      if (this.newest === undefined || isEarlier(this.newest, call.created_at)) {
        this.newest = call.created_at;
        this.idsAtNewest = new Set([call.id]);
      } else if (!isEarlier(call.created_at, this.newest)) {
        this.idsAtNewest.add(call.id);
      }
    }
  }
}
