import { isEarlier } from "../../transform/apiCallRow.js";

/** A validated call as the guard sees it: its id and its created_at (RFC 3339). */
export interface CallKey {
  id: string;
  created_at: string;
}

/**
 * Checks that a scan in ascending created_at moves forward from page to page. Dropshot's keyset
 * token lists the items that sort after the last item of the previous page, so a page starts no earlier than the newest call of the pages before it, and brings
 * a call the scan has not read. Ties in created_at are legal, in the server's order, and may
 * straddle a page boundary: the guard keeps the ids created at the newest instant so far (not every
 * id of the scan), which is all a tie needs. A call out of order inside a page, after a first call
 * that moves forward, is the scanner's warning, not an anomaly: the cursor advanced.
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
    const first = calls[0];
    if (newest === undefined || first === undefined) return undefined;
    if (isEarlier(first.created_at, newest)) {
      return `the API's cursor went back: page ${this.pages} of this scan starts at call ${first.id} created at ${first.created_at}, before ${newest}, the newest call of the pages before it`;
    }
    if (!calls.some((call) => this.advances(call, newest))) {
      return `page ${this.pages} of this scan brings no call it has not already read (first: ${first.id}; none after ${newest}, the newest so far), so the cursor did not advance`;
    }
    return undefined;
  }

  /** True when a call is past the position: newer than `newest`, or tied with it under a new id. */
  private advances(call: CallKey, newest: string): boolean {
    if (isEarlier(newest, call.created_at)) return true;
    return !isEarlier(call.created_at, newest) && !this.idsAtNewest.has(call.id);
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
