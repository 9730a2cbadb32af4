import type { ApiScope } from "../api/scope.js";
import { apiCalls } from "../sources/apiCalls.js";
import { apiTokens } from "../sources/apiTokens.js";
import { asyncOperations } from "../sources/asyncOperations.js";
import { balance } from "../sources/balance.js";
import { type DeclaredSource, runDeclared } from "../sources/declaredSource.js";
import { invoices } from "../sources/invoices.js";
import { orgMembers } from "../sources/orgMembers.js";
import { type SourceOutcome, stopsThePlan } from "../sources/outcome.js";
import { pendingRereads } from "../sources/pendingRereads.js";
import type { RunContext } from "../sources/runContext.js";
import { serviceAccounts } from "../sources/serviceAccounts.js";

/**
 * The sources of an export, in the order they run: the calls first (the account's spend, resumed
 * from their checkpoint), their re-reads, then who holds the tokens, the invoices and the credits,
 * and last the async operations of the calls (the longest and least urgent part).
 */
export function exportPlan(scope: ApiScope): readonly DeclaredSource[] {
  return scope === "org"
    ? [apiCalls, pendingRereads, apiTokens, serviceAccounts, orgMembers, invoices, balance, asyncOperations]
    : [apiCalls, pendingRereads, apiTokens, invoices, balance, asyncOperations];
}

/**
 * Runs the plan's sources in order, by one rule for what still runs after a failure: a source runs
 * unless the run was stopped (SIGINT/SIGTERM), an earlier source failed in a way that stops the plan
 * (outcome.ts: a 401, the storage, a bug), or a source it needs did not store. After a partial
 * failure (an anomaly, an API that keeps failing) the sources that do not need the failed one still
 * run. A source that does not run has no outcome; one that does is handed the details of the
 * source it needs.
 */
export async function runPlan(
  plan: readonly DeclaredSource[],
  context: RunContext,
): Promise<Map<DeclaredSource, SourceOutcome>> {
  const outcomes = new Map<DeclaredSource, SourceOutcome>();
  for (const source of plan) {
    if (context.deps.signal.aborted) break;
    if ([...outcomes.values()].some((outcome) => stopsThePlan(outcome.kind))) break;
    const needed = source.needs === undefined ? undefined : outcomes.get(source.needs);
    if (source.needs !== undefined && needed?.status !== "stored") continue;
    outcomes.set(source, await runDeclared(source, context, needed?.details));
  }
  return outcomes;
}
