import { z } from "zod";
import { PriceSchema } from "./apiCall.js";
import { DateTimeSchema, TextSchema } from "./primitives.js";

/**
 * A `uint64` credit count. JSON.parse reads it as a double, so only counts up to 2^53 arrive exact:
 * a larger one is refused rather than stored with digits the API did not send.
 */
const CreditCountSchema = z
  .int({
    error: "expected a whole number of credits (uint64) that a JSON number holds exactly (at most 2^53)",
  })
  .min(0, { error: "expected a number of credits (uint64): below 0" });

/**
 * GET /user/payment/balance or /org/payment/balance (components.schemas.CustomerBalance): the API
 * credits left and their monetary value (money-usd, kept as decimal text like a call's price).
 * Loose, as every body schema here: fields this code does not know are kept.
 */
export const CustomerBalanceSchema = z.looseObject({
  created_at: DateTimeSchema,
  updated_at: DateTimeSchema,
  monthly_api_credits_refresh_at: DateTimeSchema.nullable().optional(),
  monthly_api_credits_remaining: CreditCountSchema,
  monthly_api_credits_remaining_monetary_value: PriceSchema,
  stable_api_credits_remaining: CreditCountSchema,
  stable_api_credits_remaining_monetary_value: PriceSchema,
  // ZooProductSubscriptions: nested and not needed for the credits, stored as JSON.
  subscription_details: z.unknown().optional(),
  subscription_id: TextSchema.nullable().optional(),
  // Only returned when asked for (include_total_due), which the export does not.
  total_due: PriceSchema.nullable().optional(),
});
export type CustomerBalance = z.infer<typeof CustomerBalanceSchema>;
