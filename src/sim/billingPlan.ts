/**
 * What an account's plan grants and charges. The spec's ModelingAppSubscriptionTier carries the
 * shape (price, interval, monthly pay-as-you-go credits); Zoo does not publish the figures in it, so
 * the figures here are the simulator's: the monthly allowance is the one Zoo's per-second-billing
 * post quotes ($10 of monthly credit = 1,205 seconds), the Pro price is a round $20 a month.
 */

/** Monthly credits each UTC month, re-upped on the 1st, never carried over: $10. */
export const MONTHLY_CREDIT_MICROS = 10_000_000;
/** What the monthly credits count (seconds since per-second billing): 1,205 for $10. */
const CREDITS_PER_ALLOWANCE = 1205n;

/**
 * The credit count of a monetary value, rounded down: counts and values "reflect the same value"
 * (spec), one unit at the post's rate of 1,205 credits per $10.
 */
export function creditsOf(micros: number): bigint {
  return (BigInt(micros) * CREDITS_PER_ALLOWANCE) / BigInt(MONTHLY_CREDIT_MICROS);
}

/**
 * The paid tiers' monthly price: $20 flat for a person ("pro"), $20 per member for an org
 * ("organization": the spec's SubscriptionTierPrice "per_user", "the price the organization pays
 * per member in the org").
 */
export const SUBSCRIPTION_PRICE_MICROS = 20_000_000;

/** What an account's subscription line charges a month: the price, times the members for an org. */
export function subscriptionMicros(seats: number | undefined): number {
  return SUBSCRIPTION_PRICE_MICROS * (seats ?? 1);
}

/**
 * The account's ModelingAppSubscriptionTier (CustomerBalance.subscription_details.modeling_app):
 * "pro" (a person, flat) or "organization" (per member) when the invoices carry a subscription
 * line, else "free". `money` writes a micro-dollar amount as a JSON money value.
 */
export function subscriptionTierJson(
  subscribed: boolean,
  org: boolean,
  money: (micros: number) => string,
): string {
  const price = subscribed ? SUBSCRIPTION_PRICE_MICROS : 0;
  const display = subscribed ? (org ? "Organization" : "Pro") : "Free";
  const name = display.toLowerCase();
  const tierType = org ? `{"saml_sso":false,"type":"organization"}` : `{"type":"individual"}`;
  const fields = [
    `"billing_mode":"standard"`,
    `"description":"Zoo ${display} (simulated tier)"`,
    `"display_name":"${display}"`,
    `"endpoints_included":[]`,
    `"features":[]`,
    `"ml_custom_models":false`,
    `"monthly_pay_as_you_go_api_credits":${creditsOf(MONTHLY_CREDIT_MICROS)}`,
    `"monthly_pay_as_you_go_api_credits_monetary_value":${money(MONTHLY_CREDIT_MICROS)}`,
    `"name":"${name}"`,
    // $10 / 1,205 credits, to the spec's money precision (the value itself is not a whole micro).
    `"pay_as_you_go_api_credit_price":${money(8299)}`,
    `"price":{"interval":"month","price":${money(price)},"type":"${subscribed && org ? "per_user" : "flat"}"}`,
    `"share_links":[]`,
    `"support_tier":"community"`,
    `"training_data_behavior":"default_on"`,
    `"type":${tierType}`,
    `"zoo_tools_included":[]`,
  ];
  return `{"modeling_app":{${fields.join(",")}}}`;
}
