import { ZooUsageError } from "../errors.js";
import { insertBalanceSnapshot, rejectBalance } from "../load/balanceSnapshots.js";
import { isoTime } from "../log/isoTime.js";
import { balanceRow } from "../transform/balanceRow.js";
import type { ExportDeps, ExportOptions } from "./exportSettings.js";
import type { BalanceSummary } from "./runSummary.js";

/** Answers that mean "this token cannot see it": a warning and no snapshot, never a failed run. */
const NOT_VISIBLE: Readonly<Record<string, "forbidden" | "not_found">> = {
  "api.forbidden": "forbidden",
  "api.not_found": "not_found",
};

/**
 * One snapshot of the API credits (GET /user/payment/balance or /org/payment/balance, by the
 * export's scope) into balance_snapshots, dated by the run's clock. A 403 or 404 is a warning and the
 * step is skipped; a body that cannot be stored goes to `rejects` (`rejected` 1: the run ends
 * partial); any other failure is returned for the run to end partial or failed as it would for the
 * calls (the calls already committed stay).
 */
export async function snapshotBalance(
  deps: ExportDeps,
  options: Pick<ExportOptions, "runId" | "scope">,
  warn: (message: string, kind?: string) => void,
): Promise<{ balance: BalanceSummary; rejected: number; failure?: unknown }> {
  let body: unknown;
  try {
    body = (await deps.client.getPaymentBalance(options.scope)).body;
  } catch (error) {
    const skipped = error instanceof ZooUsageError ? NOT_VISIBLE[error.code] : undefined;
    if (skipped === undefined) {
      return {
        balance: { snapshots: 0, remaining_usd: null, skipped: "failed" },
        rejected: 0,
        failure: error,
      };
    }
    const { message, hint } = error as ZooUsageError;
    warn(`the ${options.scope} credits balance was not read, no snapshot stored: ${message} (${hint})`);
    return { balance: { snapshots: 0, remaining_usd: null, skipped }, rejected: 0 };
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
    warn(
      `the ${options.scope} credits balance could not be stored (see the rejects table): ${result.reason}`,
    );
    return { balance: { snapshots: 0, remaining_usd: null, skipped: "rejected" }, rejected: 1 };
  }
  const remaining = await insertBalanceSnapshot(deps.warehouse, result.row);
  return { balance: { snapshots: 1, remaining_usd: remaining, skipped: null }, rejected: 0 };
}

/**
 * The balance step after the scan, as the operations: not when the run was stopped or the scan
 * failed (the run ends partial or failed on that; the next run takes the snapshot).
 */
export async function balanceAfterScan(
  deps: ExportDeps,
  options: Pick<ExportOptions, "runId" | "scope">,
  failure: unknown,
  warn: (message: string, kind?: string) => void,
): Promise<Awaited<ReturnType<typeof snapshotBalance>> | undefined> {
  if (deps.signal.aborted || failure !== undefined) return undefined;
  return snapshotBalance(deps, options, warn);
}
