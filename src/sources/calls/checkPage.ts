import { setImmediate } from "node:timers/promises";
import { type CheckResult, checkApiCall, type TransformContext } from "../../transform/apiCallRow.js";

/**
 * Records validated between two turns of the event loop. A commit runs as a series of DuckDB
 * statements, and each one starts only when this thread is free to issue it: validating a whole
 * page in one go would hold each statement back until the page is done.
 */
const RECORDS_PER_TURN = 200;

/** Validates a page's records, each to a call or a reject with its reason. */
export async function checkPage(
  items: readonly unknown[],
  context: TransformContext,
): Promise<CheckResult[]> {
  const checked: CheckResult[] = [];
  for (let start = 0; start < items.length; start += RECORDS_PER_TURN) {
    if (start > 0) await setImmediate();
    const end = Math.min(items.length, start + RECORDS_PER_TURN);
    for (let i = start; i < end; i++) checked.push(checkApiCall(items[i], context));
  }
  return checked;
}
