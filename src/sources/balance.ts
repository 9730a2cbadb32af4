import { insertBalanceSnapshot } from "../load/balanceSnapshots.js";
import { insertRejects } from "../load/insertRejects.js";
import { storeOrRefuse } from "../load/storeOrRefuse.js";
import { isoTime } from "../log/isoTime.js";
import { groupDigits } from "../log/usdText.js";
import { balanceRow } from "../transform/balanceRow.js";
import { rawJsonForReject } from "../transform/recordJson.js";
import type { DeclaredSource } from "./declaredSource.js";
import type { RunContext } from "./runContext.js";
import { type CommitCounts, type PageCounts, runSource, type Source } from "./runSource.js";
import { accountStep } from "./runSummary.js";

/** What the balance source stored: the credits' remaining monetary value, exact decimal text. */
export interface BalanceDetails {
  remaining_usd: string | null;
}

/**
 * One snapshot of the API credits a run (GET /user/payment/balance or /org/payment/balance, by
 * scope), dated by the run's clock; a body that cannot be stored goes to `rejects` with the reason.
 */
export const balance: DeclaredSource<BalanceDetails> = {
  name: "balance",
  reads: "GET /{user,org}/payment/balance",
  lands: "balance_snapshots",
  disposition: "snapshot: one row a run",
  optional: true,
  phase: "account",
  progress: "reading the credits balance",
  run: async (context) => {
    const source = new BalanceSource(context);
    return {
      ...(await runSource(source, { batchRecords: 1, signal: context.deps.signal })),
      details: source.details,
    };
  },
  summarize: (summary, outcome) => {
    const remaining = outcome.details?.remaining_usd ?? null;
    summary.balance = {
      ...accountStep(outcome),
      snapshots: remaining === null ? 0 : 1,
      remaining_usd: remaining,
    };
  },
  /** What is left, or why no snapshot was stored. */
  describe: ({ balance: step }) => {
    if (step === undefined) return [];
    const left = step.remaining_usd;
    if (left === null) return [`  credits balance not stored (${step.status})`];
    const usedUp = /^0(?:\.0*)?$/.test(left) ? ", used up" : "";
    return [`  credits left ${groupDigits(left)} USD${usedUp} (snapshot in balance_snapshots)`];
  },
};

interface BalanceBatch {
  body?: unknown;
}

/** The one GET as a source of one page, so that it fails, rejects and stops as every source does. */
class BalanceSource implements Source<unknown, BalanceBatch> {
  readonly name = "balance";
  details: BalanceDetails = { remaining_usd: null };

  constructor(private readonly context: RunContext) {}

  async *pages(): AsyncIterable<unknown> {
    yield (await this.context.deps.client.getPaymentBalance(this.context.options.scope)).body;
  }

  newBatch(): BalanceBatch {
    return {};
  }

  async take(batch: BalanceBatch, body: unknown): Promise<PageCounts> {
    batch.body = body;
    return { records: 1, rejected: 0 };
  }

  size(batch: BalanceBatch): number {
    return batch.body === undefined ? 0 : 1;
  }

  async commit(batch: BalanceBatch): Promise<CommitCounts> {
    const { deps, options, warn } = this.context;
    const takenAt = isoTime(deps.now());
    const result = balanceRow(batch.body, { runId: options.runId, takenAt, scope: options.scope });
    const reason = result.ok ? (await this.store(result.row)).refused : `credits balance: ${result.reason}`;
    if (reason === undefined) return { inserted: 1, updated: 0, refused: 0 };
    await insertRejects(deps.warehouse.connection, [
      {
        run_id: options.runId,
        rejected_at: takenAt,
        record_id: null,
        reason,
        raw_json: rawJsonForReject(batch.body),
      },
    ]);
    warn(`the ${options.scope} credits balance could not be stored (see the rejects table): ${reason}`);
    return { inserted: 0, updated: 0, refused: 1 };
  }

  async complete(): Promise<void> {}

  private async store(row: Parameters<typeof insertBalanceSnapshot>[1]): Promise<{ refused?: string }> {
    const { warehouse } = this.context.deps;
    const stored = await storeOrRefuse(
      warehouse,
      [row],
      async ([one]) => {
        this.details.remaining_usd = await insertBalanceSnapshot(warehouse, one ?? row);
      },
      (limitMb) => this.context.warn(`DuckDB's memory limit raised to ${limitMb} MB for the balance`),
    );
    const refused = stored.refused[0];
    return refused === undefined ? {} : { refused: `credits balance: DuckDB refused it: ${refused.reason}` };
  }
}
