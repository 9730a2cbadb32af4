import { z } from "zod";
import { type CustomerBalance, CustomerBalanceSchema } from "../api/schemas/index.js";
import { inspectJson } from "./limits.js";
import { storedPrice } from "./money.js";

/**
 * One row of balance_snapshots (sql/schema.sql): the credits as the API reported them when the run
 * asked. Money is DECIMAL(18,6) text made as a call's price is (src/transform/money.ts): exact, or
 * rounded half-even to the micro-dollar when the API printed more digits.
 */
export interface BalanceRow {
  run_id: string;
  taken_at: string;
  scope: string;
  created_at: string;
  updated_at: string;
  monthly_api_credits_remaining: number;
  monthly_api_credits_remaining_monetary_value: string;
  monthly_api_credits_refresh_at: string | null;
  stable_api_credits_remaining: number;
  stable_api_credits_remaining_monetary_value: string;
  total_due: string | null;
  subscription_id: string | null;
  /** ZooProductSubscriptions as JSON text, or null. */
  subscription_details: string | null;
  /** Fields this version does not know, as a JSON object (null when there are none). */
  extra: string | null;
}

export type BalanceResult = { ok: true; row: BalanceRow } | { ok: false; reason: string };

const KNOWN_FIELDS: ReadonlySet<string> = new Set(Object.keys(CustomerBalanceSchema.shape));

/** No sanity limit on a balance: it is an account's total, not one call's price. */
const NO_LIMIT_USD = Number.POSITIVE_INFINITY;

/** Validates a CustomerBalance body and maps it to a row, or says precisely why it cannot be stored. */
export function balanceRow(
  raw: unknown,
  context: { runId: string; takenAt: string; scope: string },
): BalanceResult {
  const parsed = CustomerBalanceSchema.safeParse(raw);
  if (!parsed.success) return { ok: false, reason: z.prettifyError(parsed.error) };
  const balance: CustomerBalance = parsed.data;
  const monthly = storedPrice(balance.monthly_api_credits_remaining_monetary_value, NO_LIMIT_USD);
  if (!monthly.ok)
    return { ok: false, reason: `${monthly.problem} (monthly_api_credits_remaining_monetary_value)` };
  const stable = storedPrice(balance.stable_api_credits_remaining_monetary_value, NO_LIMIT_USD);
  if (!stable.ok)
    return { ok: false, reason: `${stable.problem} (stable_api_credits_remaining_monetary_value)` };
  const dueText = balance.total_due ?? null;
  const due = dueText === null ? null : storedPrice(dueText, NO_LIMIT_USD);
  if (due !== null && !due.ok) return { ok: false, reason: `${due.problem} (total_due)` };
  const source = raw as Record<string, unknown>;
  const extra: Record<string, unknown> = {};
  for (const key of Object.keys(source)) {
    if (KNOWN_FIELDS.has(key)) continue;
    const issue = inspectJson(key, source[key]).issue;
    if (issue !== undefined) return { ok: false, reason: `${issue.problem} (at ${issue.at})` };
    extra[key] = source[key];
  }
  const details = balance.subscription_details;
  if (details !== undefined && details !== null) {
    const issue = inspectJson("subscription_details", details).issue;
    if (issue !== undefined) return { ok: false, reason: `${issue.problem} (at ${issue.at})` };
  }
  return {
    ok: true,
    row: {
      run_id: context.runId,
      taken_at: context.takenAt,
      scope: context.scope,
      created_at: balance.created_at,
      updated_at: balance.updated_at,
      monthly_api_credits_remaining: balance.monthly_api_credits_remaining,
      monthly_api_credits_remaining_monetary_value: monthly.price.usd,
      monthly_api_credits_refresh_at: balance.monthly_api_credits_refresh_at ?? null,
      stable_api_credits_remaining: balance.stable_api_credits_remaining,
      stable_api_credits_remaining_monetary_value: stable.price.usd,
      total_due: due === null ? null : due.price.usd,
      subscription_id: balance.subscription_id ?? null,
      subscription_details: details === undefined || details === null ? null : JSON.stringify(details),
      extra: Object.keys(extra).length === 0 ? null : JSON.stringify(extra),
    },
  };
}
