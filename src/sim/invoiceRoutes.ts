import type { InvoiceBook } from "./invoiceBook.js";
import { billingAccountOf } from "./invoiceItems.js";
import { invoiceJson } from "./invoiceJson.js";
import { orgAdminOf } from "./orgRoutes.js";
import { errorReply, FORBIDDEN, type Reply } from "./responses.js";
import { authenticate, parseLimit, type RouteContext } from "./routes.js";
import { microsFromDate } from "./time.js";

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
  const items = page.map((invoice) => invoiceJson(invoice, book.shape)).join(",");
  return { status: 200, body: `{"next_page":${JSON.stringify(next)},"items":[${items}]}` };
}
