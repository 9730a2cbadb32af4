import { z } from "zod";
import { stringifyWithNumberTexts } from "../api/exactJson.js";
import { type CustomerBalance, CustomerBalanceSchema } from "../api/schemas/index.js";
import { keysProblem, objectJson, oversizeProblem, rowBytes, storedAmounts } from "./recordJson.js";

/**
 * One row of balance_snapshots (sql/tables/balance_snapshots.sql): the credits as the API
 * reported them when the run asked. Money is DECIMAL(18,6) text made as a call's price is (src/transform/money.ts): exact, or
 * rounded half-even to the micro-dollar when the API printed more digits, the digits kept in money_raw.
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
  /** The monetary values rounded to the micro-dollar, as printed: a JSON object (or null). */
  money_raw: string | null;
  /** "rounded" when a monetary value is rounded, else null. */
  money_flags: string | null;
}

export type BalanceResult = { ok: true; row: BalanceRow } | { ok: false; reason: string };

const KNOWN_FIELDS: ReadonlySet<string> = new Set(Object.keys(CustomerBalanceSchema.shape));

/**
 * Validates a CustomerBalance body and maps it to a row, or says precisely why it cannot be stored.
 * `extra` and `subscription_details` are written from the body as sent, every key kept (`__proto__`
 * included); a string no column can hold, or a body above MAX_RECORD_BYTES, is a reason.
 */
export function balanceRow(
  raw: unknown,
  context: { runId: string; takenAt: string; scope: string },
): BalanceResult {
  const parsed = CustomerBalanceSchema.safeParse(raw);
  if (!parsed.success) return { ok: false, reason: z.prettifyError(parsed.error) };
  const balance: CustomerBalance = parsed.data;
  const money = storedAmounts([
    ["monthly_api_credits_remaining_monetary_value", balance.monthly_api_credits_remaining_monetary_value],
    ["stable_api_credits_remaining_monetary_value", balance.stable_api_credits_remaining_monetary_value],
    ...(balance.total_due === null || balance.total_due === undefined
      ? []
      : [["total_due", balance.total_due] as const]),
  ]);
  if (!money.ok) return { ok: false, reason: money.reason };
  const source = raw as Record<string, unknown>;
  const problem =
    keysProblem(source, "", (key) => !KNOWN_FIELDS.has(key)) ??
    keysProblem(source, "", (key) => key === "subscription_details");
  if (problem !== undefined) return { ok: false, reason: problem };
  const details = source.subscription_details;
  const row: BalanceRow = {
    run_id: context.runId,
    taken_at: context.takenAt,
    scope: context.scope,
    created_at: balance.created_at,
    updated_at: balance.updated_at,
    monthly_api_credits_remaining: balance.monthly_api_credits_remaining,
    monthly_api_credits_remaining_monetary_value:
      money.usd.get("monthly_api_credits_remaining_monetary_value") ?? "",
    monthly_api_credits_refresh_at: balance.monthly_api_credits_refresh_at ?? null,
    stable_api_credits_remaining: balance.stable_api_credits_remaining,
    stable_api_credits_remaining_monetary_value:
      money.usd.get("stable_api_credits_remaining_monetary_value") ?? "",
    total_due: money.usd.get("total_due") ?? null,
    subscription_id: balance.subscription_id ?? null,
    subscription_details:
      details === undefined || details === null ? null : stringifyWithNumberTexts(details),
    extra: objectJson(source, (key) => !KNOWN_FIELDS.has(key)),
    money_raw: money.raw,
    money_flags: money.flags,
  };
  const oversize = oversizeProblem(rowBytes([Object.values(row)]));
  return oversize === undefined ? { ok: true, row } : { ok: false, reason: oversize };
}
