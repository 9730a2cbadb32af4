import { creditsOf, subscriptionTierJson } from "./billingPlan.js";
import type { InvoiceBook } from "./invoiceBook.js";
import { billingAccountOf, derivedStripeId, monthIndexOfMicros, monthStartMicros } from "./invoiceItems.js";
import { orgMemberOf } from "./orgRoutes.js";
import type { Reply } from "./responses.js";
import { authenticate, type RouteContext } from "./routes.js";
import { formatMicros, microsFromDate } from "./time.js";

/**
 * GET /user/payment/balance and /org/payment/balance (CustomerBalance), read from the credit
 * ledger: the monthly credits left this UTC month and the stable credits left, each as a count
 * and its monetary value. The org's balance answers any member of the org (spec); a user's own
 * balance is that of the account the user pays through personally, which for an org member has
 * no spend (the org pays for its members' calls).
 */

export type BalanceScope = "user" | "org";

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

/** Micro-dollars as decimal text without trailing zeros ("12.5", "0", "0.000001"). */
export function usdText(micros: bigint | number): string {
  const value = BigInt(micros);
  const whole = value / 1_000_000n;
  const fraction = (value % 1_000_000n).toString().padStart(6, "0").replace(/0+$/, "");
  return fraction === "" ? whole.toString() : `${whole}.${fraction}`;
}

/**
 * The CustomerBalance reply. Money is a JSON number written from its decimal text (a string with
 * priceAsString, as the listing's price), so no float ever rounds it. `total_due` is filled in only
 * with include_total_due=true, as the spec says it is "only returned if requested".
 */
export function getPaymentBalance(
  context: RouteContext & { book: InvoiceBook; subscription: boolean },
  requestId: string,
  scope: BalanceScope,
  query: URLSearchParams,
  authorization: string | undefined,
): Reply {
  let account: string;
  let org = false;
  if (scope === "org") {
    const member = orgMemberOf(context, requestId, authorization);
    if ("status" in member) return member;
    account = member.orgId;
    org = true;
  } else {
    const user = authenticate(context, requestId, authorization);
    if (typeof user !== "number") return user;
    const profile = context.dataset.profileOf(user);
    // An org member's personal account: billed nothing, so its credits are never drawn.
    account =
      profile === undefined
        ? ""
        : profile.orgId === null
          ? billingAccountOf(profile).id
          : `${profile.id}#personal`;
  }
  const nowUs = microsFromDate(context.now());
  context.dataset.ledger.advanceTo(nowUs);
  const balance = context.dataset.ledger.account(account).balanceAt(nowUs);
  const money = (micros: number) => (context.priceAsString ? `"${usdText(micros)}"` : usdText(micros));
  const wantsTotalDue = query.getAll("include_total_due").at(-1) === "true";
  const totalDue = wantsTotalDue ? money(context.book.totalDueMicros(account, nowUs)) : "null";
  const fields = [
    `"created_at":"${CREATED_AT}"`,
    `"monthly_api_credits_refresh_at":"${formatMicros(monthStartMicros(monthIndexOfMicros(nowUs) + 1))}"`,
    `"monthly_api_credits_remaining":${creditsOf(balance.monthlyMicros)}`,
    `"monthly_api_credits_remaining_monetary_value":${money(balance.monthlyMicros)}`,
    `"stable_api_credits_remaining":${creditsOf(balance.stableMicros)}`,
    `"stable_api_credits_remaining_monetary_value":${money(balance.stableMicros)}`,
    `"subscription_details":${subscriptionTierJson(context.subscription, org, money)}`,
    `"subscription_id":${context.subscription ? `"${derivedStripeId(context.dataset.seed, "sub_1", account, 0)}"` : "null"}`,
    `"total_due":${totalDue}`,
    `"updated_at":"${formatMicros(nowUs)}"`,
  ];
  return { status: 200, body: `{${fields.join(",")}}` };
}
