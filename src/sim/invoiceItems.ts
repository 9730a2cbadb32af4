import { hash32 } from "./random.js";
import { SALT } from "./salts.js";
import { US_PER_MS } from "./time.js";
import type { UserProfile } from "./users.js";

/**
 * Who pays for a call: the org of its user when the user has one, else the user. Zoo bills org
 * members' calls to the org (GET /org/payment/invoices) and everyone else personally
 * (GET /user/payment/invoices).
 */
export interface BillingAccount {
  kind: "user" | "org";
  id: string;
}

export function billingAccountOf(user: UserProfile): BillingAccount {
  return user.orgId === null ? { kind: "user", id: user.id } : { kind: "org", id: user.orgId };
}

/** Months since year 0, UTC: the invoice period a call of this created_at belongs to. */
export function monthIndexOfMicros(us: number): number {
  const date = new Date(Math.floor(us / US_PER_MS));
  return date.getUTCFullYear() * 12 + date.getUTCMonth();
}

/** The first microsecond of month `index` (monthIndexOfMicros's inverse). */
export function monthStartMicros(index: number): number {
  return Date.UTC(Math.floor(index / 12), index % 12, 1) * US_PER_MS;
}

const ALNUM = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** A 32-bit FNV-1a hash of a text (an account's id), to seed the derived ids. */
function textHash(text: string): number {
  let h = 0x811c9dc5;
  for (let k = 0; k < text.length; k++) {
    h ^= text.charCodeAt(k);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/**
 * A Stripe-looking id ("ii_1" then 24 alphanumerics) derived from the seed, the account and the
 * month, with a `prefix` per kind of object ("ii_1", "il_1", "in_1", "cus_").
 */
export function derivedStripeId(seed: number, prefix: string, account: string, month: number): string {
  const base = (textHash(account) ^ Math.imul(month, 0x9e3779b1)) >>> 0;
  let id = prefix;
  for (let k = 0; k < 4; k++) {
    let h = hash32(seed, (base + k * 0x3c6ef372 + textHash(prefix)) >>> 0, SALT.invoiceItem);
    for (let c = 0; c < 6; c++) {
      id += ALNUM.charAt(h % 62);
      h = Math.floor(h / 62);
    }
  }
  return id;
}

/**
 * The invoice item every billable call of one account in one invoice period is billed on (one item
 * per month): the period's invoice has one line for it, whose amount is the sum of those calls'
 * prices.
 */
export function invoiceItemId(seed: number, account: string, month: number): string {
  return derivedStripeId(seed, "ii_1", account, month);
}

/** The invoice item of one call when each billable call is its own item. */
export function callInvoiceItemId(seed: number, account: string, index: number): string {
  return derivedStripeId(seed, "ii_1", `${account}#call`, index);
}

/** The item a planted disagreement gives its call: an item no invoice line carries. */
export function unlinedInvoiceItemId(seed: number, account: string, period: number): string {
  return derivedStripeId(seed, "ii_1", `${account}#unlined`, period);
}
