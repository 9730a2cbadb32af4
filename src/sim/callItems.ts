import { BILLABLE, COVERED, type CreditLedger, periodOf } from "./creditLedger.js";
import { billingAccountOf, callInvoiceItemId, invoiceItemId, unlinedInvoiceItemId } from "./invoiceItems.js";
import type { UserProfile } from "./users.js";

/**
 * The stripe_invoice_item_id a billed call carries: none when credits paid for it (the spec sets
 * it only "if it is billable"), else its account's item for the invoice period, or its own item
 * with per-call items; with the credits shown on the invoices, every priced call is billable. The planted unlined call (SimulatorOptions.missingInvoiceItem) carries an
 * item of its own that no line has.
 */
export class CallItems {
  /** Item ids by account and period: few (accounts x months), asked for on every billable call. */
  readonly #perPeriod = new Map<string, string>();

  constructor(
    private readonly seed: number,
    private readonly ledger: CreditLedger,
    private readonly perCall: boolean,
    /** The account of the planted unlined call, if one is planted. */
    private readonly unlinedAccount: string | undefined,
    /** The invoices show the credits applied: every priced call is billed, credits or not. */
    private readonly creditsShown: boolean,
  ) {}

  itemOf(
    i: number,
    user: UserProfile,
    createdUs: number,
    billedUs: number,
    nowUs: number,
  ): string | undefined {
    const status = this.ledger.statusOf(i, nowUs);
    if (status !== BILLABLE && !(this.creditsShown && status === COVERED)) return undefined;
    const account = billingAccountOf(user).id;
    const period = periodOf(createdUs, billedUs);
    if (account === this.unlinedAccount && this.ledger.account(account).firstBillable?.index === i)
      return unlinedInvoiceItemId(this.seed, account, period);
    if (this.perCall) return callInvoiceItemId(this.seed, account, i);
    const key = `${account}:${period}`;
    let id = this.#perPeriod.get(key);
    if (id === undefined) {
      id = invoiceItemId(this.seed, account, period);
      this.#perPeriod.set(key, id);
    }
    return id;
  }
}
