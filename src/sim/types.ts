import type { LateBillingOptions } from "./lateBilling.js";

/**
 * Shapes the simulator serves. They mirror the spec's components.schemas (ApiCallWithPrice,
 * AsyncApiCallOutput) but are declared here because nothing outside src/sim may be imported by it.
 */

export interface SimUser {
  id: string;
  token: string;
  email: string;
  orgId: string | null;
  /** The user's role in its org (OrgRole): one admin per org; null without an org. */
  orgRole: "admin" | "member" | null;
}

/**
 * One ApiCallWithPrice as served at a given moment. `price` is kept as its exact decimal text (the
 * server writes it into the JSON as a number or a string, see SimulatorOptions.priceAsString).
 * An optional property that is `undefined` is omitted from the JSON.
 */
export interface ApiCallRecord {
  id: string;
  user_id: string;
  created_at: string;
  updated_at: string;
  started_at: string | null;
  completed_at: string | null;
  /** Run time in nanoseconds (the spec leaves the unit undocumented). */
  duration: number | null;
  email: string;
  endpoint: string;
  ip_address: string;
  method: string;
  minutes: number | null;
  seconds: number | null;
  org_id: string | null;
  origin: string;
  price: string | null;
  request_query_params: string;
  status_code: number | null;
  stripe_invoice_item_id?: string | undefined;
  token: string;
  user_agent: string;
}

export type OperationType =
  | "file_conversion"
  | "file_center_of_mass"
  | "file_mass"
  | "file_volume"
  | "file_density"
  | "file_surface_area"
  | "text_to_cad"
  | "text_to_cad_iteration"
  | "text_to_cad_multi_file_iteration";

export type OperationStatus = "queued" | "uploaded" | "in_progress" | "completed" | "failed";

/** One AsyncApiCallOutput: the fields common to all 9 variants plus the variant's own. */
export interface AsyncOperation {
  type: OperationType;
  id: string;
  user_id: string;
  status: OperationStatus;
  created_at: string;
  updated_at: string;
  started_at: string | null;
  completed_at: string | null;
  error: string | null;
  [field: string]: unknown;
}

export interface FaultOptions {
  /** Added before every API response. */
  latencyMs?: number;
  /** 0..1 probability per request of a 429. */
  rate429?: number;
  /** Value of Retry-After on a 429 (default 1). */
  retryAfterSeconds?: number;
  /** Send Retry-After as an HTTP date instead of seconds (both are allowed by RFC 9110). */
  retryAfterAsDate?: boolean;
  /** 0..1 probability of a 500, 502 or 503 (chosen at random). */
  rate5xx?: number;
  /** 0..1 probability of destroying the socket without any response. */
  rateReset?: number;
  /** 0..1 probability of a 200 whose body is cut in half before the connection is destroyed. */
  rateTruncated?: number;
  /** Seed of the fault PRNG, so a run's faults are reproducible. */
  faultSeed?: number;
}

export interface SimulatorOptions {
  seed?: number;
  calls?: number;
  days?: number;
  users?: number;
  now?: Date;
  /**
   * The machine's clock, when the simulated clock should also move as it does (the `sim` command);
   * without it the simulated clock moves only when told to (POST /_sim/clock, tests).
   */
  wallClock?: () => Date;
  host?: string;
  port?: number;
  /**
   * "sim" (default): the user and org ids every seed of `zoo-usage sim` serves. "demo": ids made
   * with salts of their own, so the demo's account is one no `sim` seed serves, and an export of a
   * `sim` account into the demo's database is refused as another account's.
   */
  accountIds?: "sim" | "demo";
  firstUserToken?: string;
  /** API tokens of the first user, instead of 1 to 3 (a large account: its calls use them all). */
  firstUserApiTokens?: number;
  priceAsString?: boolean;
  /**
   * "realistic" (default): prices follow Zoo's pricing rules, so they are whole cents and failed
   * calls cost nothing. "adversarial": sub-cent prices with up to 6 decimals, a few very large ones,
   * and failed calls charged, for tests of exact money handling.
   */
  priceMode?: "realistic" | "adversarial";
  /**
   * true (default): the call rate follows the weekdays (weekends quiet), grows by 1.5% a week and
   * varies from day to day, as a real account's does. false: calls evenly spread over time.
   */
  seasonal?: boolean;
  /** A UTC day (YYYY-MM-DD) with `spikeFactor` times its usual calls: a planted spend spike. */
  spikeDay?: string;
  /** The planted spikes' multiple (spikeDay, spikeWeekday; default 6). */
  spikeFactor?: number;
  /** From this UTC day (YYYY-MM-DD) on, `stepFactor` times the calls: a step in usage, up or down. */
  stepDay?: string;
  /** The step's multiple, e.g. 1.8 or 0.5 (default 1: no step). */
  stepFactor?: number;
  /** A weekday, 0 (Sunday) to 6 (Saturday), whose second occurrence each month has `spikeFactor` times its calls. */
  spikeWeekday?: number;
  /** Growth of the seasonal call rate per week, e.g. 0.05 (default 0.015). */
  growthPerWeek?: number;
  /** A UTC month (YYYY-MM) with 40% of its usual calls: a quiet month. */
  quietMonth?: string;
  /** The day-to-day draw is lognormal with this sigma, e.g. 0.25, instead of uniform +-12%. */
  lognormalNoise?: number;
  /**
   * The stable credits granted 2 days before the clock's start last this many days of the account's
   * recent spend (default 10, in whole $100); fewer plants credits about to run out.
   */
  runwayGrantDays?: number;
  /** Share of calls whose created_at ties with the call before them, 0 (default) to 0.5. */
  tieShare?: number;
  faults?: FaultOptions;
  /**
   * Records every API request it serves as a call of the requesting user, listed once the clock
   * has moved past it, as the real API does (default false: the history stays a pure function of
   * the seed, which most tests compare against).
   */
  recordOwnTraffic?: boolean;
  /**
   * Size in bytes (decoded) of the first output file of every completed operation that has output
   * files (conversions, text-to-CAD), as real CAD files are: megabytes. Default: the generated
   * few-KB files as they are.
   */
  outputBytes?: number;
  /** Calls whose billing lands days late or at month end (default: 5% of calls). */
  lateBilling?: LateBillingOptions;
  /**
   * Adds $1.23 to one invoice line (the oldest invoice of user 0's billing account), so that it
   * disagrees with the calls billed on its invoice item and a reconciliation has one thing to find
   * (default false: every line is the exact sum of its calls' prices).
   */
  invoiceDisagreement?: boolean;
  /**
   * One billable call of user 0's account carries an invoice item that no line of its (complete)
   * invoice has, and the invoice leaves its price out (default false).
   */
  missingInvoiceItem?: boolean;
  /**
   * User 0's account's oldest invoice with usage bills its first usage line's item a second time,
   * on an extra line of $2.50 (default false).
   */
  extraInvoiceLine?: boolean;
  /**
   * "per-month" (default): every billable call of an account's invoice period is billed on one
   * item, one line. "per-call": each billable call is its own item and line.
   */
  invoiceItems?: "per-month" | "per-call";
  /** Every invoice ends with a $20 subscription line (a Pro tier) and names its subscription (default false). */
  subscription?: boolean;
  /** `lines` holds the first N lines of an invoice, while subtotal and total stay whole (default: all). */
  invoiceLinesLimit?: number;
  /**
   * Beside the paid invoices: a draft for the open period, the newest closed one still open, the
   * second oldest uncollectible, and the oldest issued once before as a voided copy (default false).
   */
  invoiceStatuses?: boolean;
  /**
   * "none" (default): calls paid by credits carry no invoice item and are on no invoice. "line":
   * every priced call is billed, and each invoice has a negative "API credits applied" line for the
   * credits its period used. "discount": the same, the credits applied as a Discount instead.
   */
  creditsOnInvoice?: "none" | "line" | "discount";
  /**
   * A sales tax of 8.25% on what each invoice charges before tax (after its invoice-level
   * discounts), to the cent: "amount" in the `tax` field, "line" as a line of its own, listed first
   * and counted in `subtotal` (default: no tax).
   */
  invoiceTax?: "amount" | "line";
  /**
   * A 10% coupon, listed in `discounts`: "coupon" off the invoice's subtotal; "item-gross" off each
   * usage line, the lines written gross and `subtotal` net of the discounts; "item-net" the same
   * with each usage line written net (default: none).
   */
  invoiceDiscount?: "coupon" | "item-gross" | "item-net";
  /** Each account's oldest paid invoice has a quarter of its payment refunded (default false). */
  invoiceRefund?: boolean;
  /**
   * Each account's newest closed invoice is open with half of its amount due paid, as is the
   * uncollectible one with invoiceStatuses (default false).
   */
  partialPayment?: boolean;
  /** $5.00 of the customer's balance pays part of each account's oldest invoice with a total (default false). */
  customerBalance?: boolean;
  /**
   * The invoices' currency, lowercase: "eur", "gbp" or "cad", each line converted from USD at a
   * fixed rate (src/sim/currencyRates.ts); any other code is refused (default: USD).
   */
  invoiceCurrency?: string;
  /**
   * Each account's oldest invoice with usage was voided and reissued a day later with new line and
   * item ids; its calls keep the void invoice's items (default false).
   */
  voidReissue?: boolean;
}
