-- The charge ledger as a FOCUS 1.2 cost-and-usage dataset (the FinOps Foundation's format, which
-- AWS, Azure, Google Cloud and Oracle export), so Zoo spend joins the cloud bills in a FinOps
-- tool. One row per row of charges. docs/focus.md gives each column's reasoning and the provider
-- criteria Zoo declares: usage measurement, more than one billing account type, and pricing in a
-- currency other than the billing one. Zoo specifics follow the FOCUS columns, prefixed x_.
-- Applied after ledger.sql.
CREATE OR REPLACE VIEW focus_costs AS
SELECT
  billed_cost AS BilledCost,
  billing_account_id AS BillingAccountId,
  CAST(NULL AS VARCHAR) AS BillingAccountName,
  CASE billing_account_kind WHEN 'org' THEN 'Organization' ELSE 'Personal' END AS BillingAccountType,
  currency AS BillingCurrency,
  timezone('UTC', CAST(billing_period_end AS TIMESTAMP)) AS BillingPeriodEnd,
  timezone('UTC', CAST(billing_period_start AS TIMESTAMP)) AS BillingPeriodStart,
  CASE kind
    WHEN 'usage' THEN 'Usage'
    WHEN 'subscription' THEN 'Purchase'
    WHEN 'tax' THEN 'Tax'
    WHEN 'discount' THEN 'Credit'
    WHEN 'credit' THEN 'Credit'
    ELSE 'Adjustment'
  END AS ChargeCategory,
  CASE WHEN correction IS NOT NULL THEN 'Correction' END AS ChargeClass,
  description AS ChargeDescription,
  CASE kind WHEN 'usage' THEN 'Usage-Based' WHEN 'subscription' THEN 'Recurring' ELSE 'One-Time' END
    AS ChargeFrequency,
  charge_period_end AS ChargePeriodEnd,
  charge_period_start AS ChargePeriodStart,
  CAST(NULL AS VARCHAR) AS CommitmentDiscountStatus,
  CASE WHEN kind = 'usage' THEN CAST(coalesce(calls, 0) AS DECIMAL(38, 6)) END AS ConsumedQuantity,
  CASE WHEN kind = 'usage' THEN 'Requests' END AS ConsumedUnit,
  list_cost AS ContractedCost,
  CASE WHEN kind = 'subscription' THEN 0 ELSE effective_cost END::DECIMAL(38, 6) AS EffectiveCost,
  invoice_id AS InvoiceId,
  'Zoo' AS InvoiceIssuerName,
  list_cost AS ListCost,
  CASE WHEN kind = 'usage' THEN 'USD' ELSE currency END AS PricingCurrency,
  CASE
    WHEN kind = 'usage' THEN coalesce(price_usd, billed_cost)
    WHEN kind = 'subscription' THEN 0
    ELSE effective_cost
  END::DECIMAL(38, 6) AS PricingCurrencyEffectiveCost,
  CASE
    WHEN kind = 'usage' THEN CAST(coalesce(seconds, 0) AS DECIMAL(38, 6))
    WHEN kind = 'subscription' THEN CAST(1 AS DECIMAL(38, 6))
  END AS PricingQuantity,
  CASE kind WHEN 'usage' THEN 'Seconds' WHEN 'subscription' THEN 'Months' END AS PricingUnit,
  'Zoo' AS ProviderName,
  'Zoo' AS PublisherName,
  'Compute' AS ServiceCategory,
  'Zoo API' AS ServiceName,
  'Serverless Compute' AS ServiceSubcategory,
  kind AS x_ChargeKind,
  reason AS x_ChargeReason,
  correction AS x_Correction,
  state AS x_State,
  billing_class AS x_BillingClass,
  invoice_number AS x_InvoiceNumber,
  related_invoice_id AS x_RefundedInvoiceId,
  endpoint_template AS x_EndpointTemplate,
  calls AS x_Calls,
  pending_calls AS x_PendingCalls,
  member_id AS x_MemberId,
  member_email AS x_MemberEmail,
  token_hash AS x_TokenHash,
  token_label AS x_TokenLabel,
  charge_id AS x_ChargeId
FROM charges;
COMMENT ON VIEW focus_costs IS 'The charge ledger (charges) as a FOCUS 1.2 cost-and-usage dataset: the FinOps Foundation''s columns, then Zoo''s own prefixed x_. docs/focus.md.';
COMMENT ON COLUMN focus_costs.BilledCost IS 'FOCUS: what the row charges, in BillingCurrency (charges.billed_cost).';
COMMENT ON COLUMN focus_costs.BillingAccountId IS 'FOCUS: the Zoo org or user billed (charges.billing_account_id).';
COMMENT ON COLUMN focus_costs.BillingAccountName IS 'FOCUS: NULL; the export reads no account name (docs/focus.md).';
COMMENT ON COLUMN focus_costs.BillingAccountType IS 'FOCUS: Organization or Personal, the two kinds of account Zoo bills.';
COMMENT ON COLUMN focus_costs.BillingCurrency IS 'FOCUS: the currency of the invoice, else USD.';
COMMENT ON COLUMN focus_costs.BillingPeriodEnd IS 'FOCUS: the exclusive end of the billing month (UTC).';
COMMENT ON COLUMN focus_costs.BillingPeriodStart IS 'FOCUS: the first instant of the billing month (UTC): the month the invoice bills.';
COMMENT ON COLUMN focus_costs.ChargeCategory IS 'FOCUS: Usage (calls), Purchase (the subscription), Tax, Credit (API credits, credit lines, customer balance, discounts) or Adjustment (other charges of unknown nature, differences, unlisted lines, refunds).';
COMMENT ON COLUMN focus_costs.ChargeClass IS 'FOCUS: Correction for a charge on a billing period already invoiced (billed late, reissued, refunded); NULL otherwise.';
COMMENT ON COLUMN focus_costs.ChargeDescription IS 'FOCUS: what the row is, for people.';
COMMENT ON COLUMN focus_costs.ChargeFrequency IS 'FOCUS: Usage-Based for calls, Recurring for a subscription, One-Time otherwise.';
COMMENT ON COLUMN focus_costs.ChargePeriodEnd IS 'FOCUS: the exclusive end of the charge: the day after the calls, or the end of the billing month.';
COMMENT ON COLUMN focus_costs.ChargePeriodStart IS 'FOCUS: the start of the charge: the calls'' UTC day, or the billing month.';
COMMENT ON COLUMN focus_costs.CommitmentDiscountStatus IS 'FOCUS: NULL; Zoo has no commitment discounts. Present because the validator''s rules for ConsumedQuantity read it.';
COMMENT ON COLUMN focus_costs.ConsumedQuantity IS 'FOCUS: for Usage, the number of API calls (requests); NULL otherwise.';
COMMENT ON COLUMN focus_costs.ConsumedUnit IS 'FOCUS: Requests for Usage; NULL otherwise.';
COMMENT ON COLUMN focus_costs.ContractedCost IS 'FOCUS: equal to ListCost: Zoo has no negotiated prices in its API.';
COMMENT ON COLUMN focus_costs.EffectiveCost IS 'FOCUS: equal to BilledCost, but 0 for the subscription, a purchase that covers future charges (the month''s API credits), as FOCUS requires.';
COMMENT ON COLUMN focus_costs.InvoiceId IS 'FOCUS: the invoice (a draft''s id for an estimate); NULL for charges no invoice carries.';
COMMENT ON COLUMN focus_costs.InvoiceIssuerName IS 'FOCUS: Zoo, which issues the invoices (through Stripe).';
COMMENT ON COLUMN focus_costs.ListCost IS 'FOCUS: equal to BilledCost: calls are charged at Zoo''s public prices, discounts and credits are rows of their own.';
COMMENT ON COLUMN focus_costs.PricingCurrency IS 'FOCUS: USD for usage (Zoo prices calls in USD), the billing currency otherwise.';
COMMENT ON COLUMN focus_costs.PricingCurrencyEffectiveCost IS 'FOCUS: the cost in PricingCurrency: the calls'' USD price for usage, EffectiveCost otherwise.';
COMMENT ON COLUMN focus_costs.PricingQuantity IS 'FOCUS: for Usage, the seconds the calls were billed for (Zoo prices per second of run time); 1 for a subscription month; NULL otherwise.';
COMMENT ON COLUMN focus_costs.PricingUnit IS 'FOCUS: Seconds for Usage, Months for a subscription; NULL otherwise.';
COMMENT ON COLUMN focus_costs.ProviderName IS 'FOCUS: Zoo.';
COMMENT ON COLUMN focus_costs.PublisherName IS 'FOCUS: Zoo.';
COMMENT ON COLUMN focus_costs.ServiceCategory IS 'FOCUS: Compute: Zoo charges per second of its CAD engine running jobs on request.';
COMMENT ON COLUMN focus_costs.ServiceName IS 'FOCUS: Zoo API.';
COMMENT ON COLUMN focus_costs.ServiceSubcategory IS 'FOCUS: Serverless Compute: compute on request, without servers of the customer''s.';
COMMENT ON COLUMN focus_costs.x_ChargeKind IS 'Zoo: the ledger''s kind of the row (charges.kind).';
COMMENT ON COLUMN focus_costs.x_ChargeReason IS 'Zoo: where the row comes from (charges.reason).';
COMMENT ON COLUMN focus_costs.x_Correction IS 'Zoo: billed_late, reissued or refund for a correction (charges.correction).';
COMMENT ON COLUMN focus_costs.x_State IS 'Zoo: estimated, awaiting, invoiced, paid, outstanding or written_off (charges.state).';
COMMENT ON COLUMN focus_costs.x_BillingClass IS 'Zoo: the calls'' billing class (charges.billing_class).';
COMMENT ON COLUMN focus_costs.x_InvoiceNumber IS 'Zoo: the invoice''s number.';
COMMENT ON COLUMN focus_costs.x_RefundedInvoiceId IS 'Zoo: for a refund, the invoice it refunds.';
COMMENT ON COLUMN focus_costs.x_EndpointTemplate IS 'Zoo: the calls'' route template.';
COMMENT ON COLUMN focus_costs.x_Calls IS 'Zoo: the number of calls of a usage row.';
COMMENT ON COLUMN focus_costs.x_PendingCalls IS 'Zoo: of those, calls whose billing has not completed.';
COMMENT ON COLUMN focus_costs.x_MemberId IS 'Zoo: the user who made the calls.';
COMMENT ON COLUMN focus_costs.x_MemberEmail IS 'Zoo: that user''s email as stored (kept, hashed or NULL per --email-column).';
COMMENT ON COLUMN focus_costs.x_TokenHash IS 'Zoo: the token the calls were made with, as its HMAC (api_calls.token_hash).';
COMMENT ON COLUMN focus_costs.x_TokenLabel IS 'Zoo: the label of that token.';
COMMENT ON COLUMN focus_costs.x_ChargeId IS 'Zoo: the ledger row''s stable id (charges.charge_id).';
