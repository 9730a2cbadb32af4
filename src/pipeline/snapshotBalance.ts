import { notVisibleStatus } from "../api/notVisible.js";
import type { ZooUsageError } from "../errors.js";
import { insertBalanceSnapshot, rejectBalance } from "../load/balanceSnapshots.js";
import { isoTime } from "../log/isoTime.js";
import { balanceRow } from "../transform/balanceRow.js";
import type { ExportDeps, ExportOptions } from "./exportSettings.js";
import type { BalanceSummary } from "./runSummary.js";

/**
 * One snapshot of the API credits (GET /user/payment/balance or /org/payment/balance, by the
 * export's scope) into balance_snapshots, dated by the run's clock. A 403 or 404 is a warning and the
 * step is skipped; a body that cannot be stored goes to `rejects` (status "failed", `rejected` 1: the
 * run ends partial); any other failure is returned for the run to end partial or failed as it would
 * for the calls (the calls already committed stay).
 */
export async function snapshotBalance(
  deps: ExportDeps,
  options: Pick<ExportOptions, "runId" | "scope">,
  warn: (message: string, kind?: string) => void,
): Promise<{ balance: BalanceSummary; failure?: unknown }> {
  const startedAt = deps.now().getTime();
  const ended = (status: BalanceSummary["status"], rest: Partial<BalanceSummary>): BalanceSummary => ({
    status,
    snapshots: 0,
    remaining_usd: null,
    rejected: 0,
    ...rest,
    seconds: (deps.now().getTime() - startedAt) / 1000,
  });
  let body: unknown;
  try {
    body = (await deps.client.getPaymentBalance(options.scope)).body;
  } catch (error) {
    if (notVisibleStatus(error) === undefined) {
      const reason = error instanceof Error ? error.message : String(error);
      return {
        balance: ended("failed", { message: `credits balance not read: ${reason}` }),
        failure: error,
      };
    }
    const { message: answer, hint } = error as ZooUsageError;
    const message = `the ${options.scope} credits balance was not read, no snapshot stored: ${answer} (${hint})`;
    warn(message);
    return { balance: ended("skipped", { message }) };
  }
  const takenAt = isoTime(deps.now());
  const result = balanceRow(body, { runId: options.runId, takenAt, scope: options.scope });
  if (!result.ok) {
    await rejectBalance(deps.warehouse, {
      runId: options.runId,
      rejectedAt: takenAt,
      reason: `credits balance: ${result.reason}`,
      rawJson: JSON.stringify(body) ?? "null",
    });
    const message = `the ${options.scope} credits balance could not be stored (see the rejects table): ${result.reason}`;
    warn(message);
    return { balance: ended("failed", { rejected: 1, message }) };
  }
  const remaining = await insertBalanceSnapshot(deps.warehouse, result.row);
  return { balance: ended("stored", { snapshots: 1, remaining_usd: remaining }) };
}
