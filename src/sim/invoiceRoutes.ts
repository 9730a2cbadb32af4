import type { InvoiceBook, SimInvoice } from "./invoiceBook.js";
import { billingAccountOf } from "./invoiceItems.js";
import { orgAdminOf } from "./orgRoutes.js";
import { errorReply, FORBIDDEN, type Reply } from "./responses.js";
import { authenticate, parseLimit, type RouteContext } from "./routes.js";
import { formatMicros, microsFromDate } from "./time.js";

/** Micro-dollars as the exact decimal text of a JSON number ("12.3", "0"). */
export function microsText(micros: number): string {
  const negative = micros < 0;
  const magnitude = Math.abs(micros);
  const whole = Math.floor(magnitude / 1_000_000);
  const fraction = String(magnitude - whole * 1_000_000)
    .padStart(6, "0")
    .replace(/0+$/, "");
  const text = fraction === "" ? String(whole) : `${whole}.${fraction}`;
  return negative && magnitude !== 0 ? `-${text}` : text;
}

/** The page token: the offset of the next invoice, as URL-safe base64 of a small JSON object. */
function encodeToken(offset: number): string {
  return Buffer.from(JSON.stringify({ v: "v1", offset })).toString("base64url");
}

function decodeToken(token: string): number | undefined {
  try {
    const value = JSON.parse(Buffer.from(token, "base64url").toString("utf8")) as { offset?: unknown };
    return Number.isSafeInteger(value.offset) && (value.offset as number) >= 0
      ? (value.offset as number)
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * GET /user/payment/invoices and GET /org/payment/invoices (operationIds list_invoices_for_user,
 * list_invoices_for_org): InvoiceResultsPage, paged as the other listings (a token on every
 * non-empty page, an empty page with next_page null last). A user in an org is billed through it,
 * so has no personal invoices (an empty list); the org route answers its admin only (orgAdminOf:
 * 404 for a user in no org, 403 for a member who is not the admin).
 */
export function listInvoices(
  ctx: RouteContext,
  book: InvoiceBook,
  scope: "user" | "org",
  requestId: string,
  query: URLSearchParams,
  authorization: string | undefined,
): Reply {
  const limit = parseLimit(requestId, query);
  if (typeof limit !== "number") return limit;
  const rawToken = query.getAll("page_token").at(-1);
  const offset = rawToken === undefined ? 0 : decodeToken(rawToken);
  if (offset === undefined)
    return errorReply(requestId, 400, "unable to parse query string: failed to parse pagination token");
  // The org's invoices are for its admin, with the org routes' answers for anyone else.
  const admin = scope === "org" ? orgAdminOf(ctx, requestId, authorization) : undefined;
  if (admin !== undefined && "status" in admin) return admin;
  const user = admin?.user ?? authenticate(ctx, requestId, authorization);
  if (typeof user !== "number") return user;
  const profile = ctx.dataset.profileOf(user);
  if (profile === undefined) return errorReply(requestId, 500, "Internal Server Error", "Internal");
  const account = billingAccountOf(profile);
  if (scope === "org" && account.kind !== "org")
    return errorReply(requestId, 403, "forbidden: you are not an admin of an org", FORBIDDEN);
  const nowUs = microsFromDate(ctx.now());
  const invoices = account.kind === scope ? book.invoicesOf(account.id, nowUs) : [];
  const page = invoices.slice(offset, offset + limit);
  const next = page.length === 0 ? null : encodeToken(offset + page.length);
  const items = page.map((invoice) => invoiceJson(invoice)).join(",");
  return { status: 200, body: `{"next_page":${JSON.stringify(next)},"items":[${items}]}` };
}

/** What an invoice of each status has paid and still owes: drafts and voids owe nothing yet. */
function amounts(invoice: SimInvoice): { paid: number; remaining: number } {
  const total = invoice.subtotalMicros - invoice.discountMicros;
  if (invoice.status === "paid") return { paid: total, remaining: 0 };
  if (invoice.status === "void") return { paid: 0, remaining: 0 };
  return { paid: 0, remaining: total };
}

/**
 * One Invoice as the spec describes it. Money is written as JSON numbers with the exact decimal
 * text (format money-usd); the fields the spec makes optional without a default that Zoo leaves
 * out when Stripe has none (discounts, default_payment_method, receipt_number) are left out too.
 * `subtotal` and `total` are the whole invoice's, even when `lines` holds only its first lines.
 */
function invoiceJson(invoice: SimInvoice): string {
  const subtotal = microsText(invoice.subtotalMicros);
  const total = microsText(invoice.subtotalMicros - invoice.discountMicros);
  // The credits applied as a Discount (spec): a coupon of that amount off.
  const discount = `{"coupon":{"amount_off":${microsText(invoice.discountMicros)},"id":"credits-${invoice.id}","metadata":{},"name":"API credits","percent_off":null}}`;
  const { paid, remaining } = amounts(invoice);
  const lines = invoice.lines.map((line) => {
    const item = line.invoiceItem === undefined ? "" : `,"invoice_item":"${line.invoiceItem}"`;
    return `{"amount":${microsText(line.amountMicros)},"currency":"usd","description":${JSON.stringify(line.description)},"id":"${line.id}"${item},"metadata":{}}`;
  });
  const final = invoice.status !== "draft";
  const fields = [
    `"amount_due":${total}`,
    `"amount_paid":${microsText(paid)}`,
    `"amount_refunded":0`,
    `"amount_remaining":${microsText(remaining)}`,
    `"attempt_count":${final ? 1 : 0}`,
    `"attempted":${final}`,
    `"billing_reason":"${invoice.subscriptionId === null ? "manual" : "subscription_cycle"}"`,
    `"collection_method":"charge_automatically"`,
    `"created_at":"${formatMicros(invoice.createdUs).replace(/\.\d+Z$/, "Z")}"`,
    `"currency":"usd"`,
    ...(invoice.customerEmail === undefined
      ? []
      : [`"customer_email":${JSON.stringify(invoice.customerEmail)}`]),
    `"customer_id":"${invoice.customerId}"`,
    `"description":"Zoo API usage"`,
    ...(invoice.discountMicros === 0 ? [] : [`"discounts":[${discount}]`]),
    `"id":"${invoice.id}"`,
    `"lines":[${lines.join(",")}]`,
    `"metadata":{}`,
    `"number":"${invoice.number}"`,
    `"paid":${invoice.status === "paid"}`,
    `"pdf":"https://pay.stripe.com/invoice/${invoice.id}/pdf"`,
    `"refund_status":null`,
    `"statement_descriptor":"ZOO API"`,
    `"status":"${invoice.status}"`,
    `"subscription_id":${invoice.subscriptionId === null ? "null" : `"${invoice.subscriptionId}"`}`,
    `"subtotal":${subtotal}`,
    `"tax":0`,
    `"total":${total}`,
    `"url":"https://invoice.stripe.com/i/${invoice.id}"`,
  ];
  return `{${fields.join(",")}}`;
}
