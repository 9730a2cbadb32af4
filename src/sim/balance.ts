import type { Dataset } from "./dataset.js";
import { orgAdminOf } from "./orgRoutes.js";
import type { Reply } from "./responses.js";
import { authenticate, type RouteContext } from "./routes.js";
import { monthOf, SpendLedger } from "./spendLedger.js";
import { formatMicros, microsFromDate } from "./time.js";

/**
 * GET /user/payment/balance and /org/payment/balance (CustomerBalance), coherent with the calls:
 * every UTC month grants MONTHLY_CREDIT_MICROS of monthly credits, which do not carry over, and the
 * account holds STABLE_CREDIT_MICROS of stable credits granted once. The priced spend of the scope's
 * calls (what its listing shows at the clock, billed ones only) pulls from the month's credits first
 * and from the stable credits for the rest, as the spec's CustomerBalance describes; neither goes
 * below zero. So the balance falls as the clock moves and billing lands, and refreshes each month.
 */

export type BalanceScope = "user" | "org";

/** $20 of monthly credits each UTC month. */
export const MONTHLY_CREDIT_MICROS = 20_000_000n;
/** $5,000 of stable credits, granted once. */
export const STABLE_CREDIT_MICROS = 5_000_000_000n;
/** One credit is one cent: the count is the value in whole cents, rounded down. */
export const MICROS_PER_CREDIT = 10_000n;
/** When the simulated balance was created (CustomerBalance.created_at). */
const CREATED_AT = "2025-01-01T00:00:00Z";

const BALANCE_PATHS: Readonly<Record<string, BalanceScope>> = {
  "/user/payment/balance": "user",
  "/org/payment/balance": "org",
};

/** The scope of a balance path, or undefined for any other path. */
export function balanceScopeOf(path: string): BalanceScope | undefined {
  return BALANCE_PATHS[path];
}

/** The credits left at `nowUs`, in micro-dollars. */
export interface SimBalance {
  monthlyMicros: bigint;
  stableMicros: bigint;
  /** The first instant of the next UTC month: when the monthly credits refresh. */
  refreshAtUs: number;
}

/** The balance left by a scope's spend per month (SpendLedger.spendAt) at `nowUs`. */
export function balanceFrom(spendByMonth: ReadonlyMap<number, bigint>, nowUs: number): SimBalance {
  const current = monthOf(nowUs);
  let stable = STABLE_CREDIT_MICROS;
  for (const spend of spendByMonth.values()) {
    if (spend > MONTHLY_CREDIT_MICROS) stable -= spend - MONTHLY_CREDIT_MICROS;
  }
  const spentThisMonth = spendByMonth.get(current) ?? 0n;
  return {
    monthlyMicros: spentThisMonth >= MONTHLY_CREDIT_MICROS ? 0n : MONTHLY_CREDIT_MICROS - spentThisMonth,
    stableMicros: stable > 0n ? stable : 0n,
    refreshAtUs: Date.UTC(Math.floor((current + 1) / 12), (current + 1) % 12, 1) * 1000,
  };
}

/** One ledger per set of paying users, made on first use: the simulator's memo of their spend. */
export class SpendLedgers {
  readonly #ledgers = new Map<string, SpendLedger>();

  constructor(private readonly dataset: Dataset) {}

  spendAt(users: readonly number[], nowUs: number): ReadonlyMap<number, bigint> {
    const key = users.join(",");
    let ledger = this.#ledgers.get(key);
    if (ledger === undefined) {
      ledger = new SpendLedger(this.dataset, new Set(users));
      this.#ledgers.set(key, ledger);
    }
    return ledger.spendAt(nowUs);
  }
}

/** Micro-dollars as decimal text without trailing zeros ("12.5", "0", "0.000001"). */
export function usdText(micros: bigint): string {
  const whole = micros / 1_000_000n;
  const fraction = (micros % 1_000_000n).toString().padStart(6, "0").replace(/0+$/, "");
  return fraction === "" ? whole.toString() : `${whole}.${fraction}`;
}

/**
 * The CustomerBalance reply. Money is a JSON number written from its decimal text (a string with
 * priceAsString, as the listing's price), so no float ever rounds it.
 */
export function getPaymentBalance(
  context: RouteContext & { ledgers: SpendLedgers },
  requestId: string,
  scope: BalanceScope,
  authorization: string | undefined,
): Reply {
  // The user's own spend, or every member's for the org's admin (others get the org routes' answer).
  let users: number[];
  if (scope === "org") {
    const admin = orgAdminOf(context, requestId, authorization);
    if ("status" in admin) return admin;
    users = admin.members;
  } else {
    const user = authenticate(context, requestId, authorization);
    if (typeof user !== "number") return user;
    users = [user];
  }
  const nowUs = microsFromDate(context.now());
  const balance = balanceFrom(context.ledgers.spendAt(users, nowUs), nowUs);
  const money = (micros: bigint) => (context.priceAsString ? `"${usdText(micros)}"` : usdText(micros));
  const fields = [
    `"created_at":"${CREATED_AT}"`,
    `"monthly_api_credits_refresh_at":"${formatMicros(balance.refreshAtUs)}"`,
    `"monthly_api_credits_remaining":${balance.monthlyMicros / MICROS_PER_CREDIT}`,
    `"monthly_api_credits_remaining_monetary_value":${money(balance.monthlyMicros)}`,
    `"stable_api_credits_remaining":${balance.stableMicros / MICROS_PER_CREDIT}`,
    `"stable_api_credits_remaining_monetary_value":${money(balance.stableMicros)}`,
    `"subscription_details":null`,
    `"subscription_id":null`,
    `"total_due":null`,
    `"updated_at":"${formatMicros(nowUs)}"`,
  ];
  return { status: 200, body: `{${fields.join(",")}}` };
}
