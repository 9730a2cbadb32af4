import { listAllCalls, toMicros } from "./apiTruth.js";

/**
 * What an org admin's token lists, walked with plain HTTP and no zoo-usage code, in the sorted
 * text form the org tests compare a warehouse with.
 */

/** Every item of a ResultsPage listing (the directory listings, invoices). */
export async function listItems(
  baseUrl: string,
  token: string,
  listing: string,
): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let pageToken: string | null = null;
  for (let requests = 0; requests < 1000; requests++) {
    const url = new URL(listing, baseUrl);
    url.searchParams.set("limit", "100");
    if (pageToken !== null) url.searchParams.set("page_token", pageToken);
    const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
    if (!response.ok) throw new Error(`${listing}: ${response.status} ${await response.text()}`);
    const body = (await response.json()) as { items: Record<string, unknown>[]; next_page: string | null };
    items.push(...body.items);
    if (body.next_page === null) return items;
    pageToken = body.next_page;
  }
  throw new Error(`${listing} did not end`);
}

/** Money as exact micro-dollars (text), from the API's JSON number or DuckDB's DECIMAL text. */
export const micros = (value: unknown) => toMicros(String(value)).toString();

/**
 * The org's listings: call ids, the admin's API tokens, the service accounts, the members with
 * their role, each invoice as "id, line count, line amounts, total", and the balance's remaining
 * monthly and stable value.
 */
export async function orgTruth(baseUrl: string, token: string) {
  const list = (listing: string) => listItems(baseUrl, token, listing);
  const ids = (items: Record<string, unknown>[]) => items.map((item) => String(item.id)).sort();
  const response = await fetch(new URL("/org/payment/balance", baseUrl), {
    headers: { authorization: `Bearer ${token}` },
  });
  if (!response.ok) throw new Error(`/org/payment/balance: ${response.status}`);
  const balance = (await response.json()) as Record<string, unknown>;
  return {
    calls: (await listAllCalls(baseUrl, token, "/org/api-calls")).map((call) => call.id).sort(),
    apiTokens: ids(await list("/user/api-tokens")),
    serviceAccounts: ids(await list("/org/service-accounts")),
    members: (await list("/org/members"))
      .map((member) => `${String(member.id)} ${String(member.role)}`)
      .sort(),
    invoices: (await list("/org/payment/invoices"))
      .map((invoice) => {
        const lines = invoice.lines as { amount: unknown }[];
        return `${String(invoice.id)} ${lines.length} ${lines.map((line) => micros(line.amount)).join(",")} ${micros(invoice.total)}`;
      })
      .sort(),
    remaining: [
      micros(balance.monthly_api_credits_remaining_monetary_value),
      micros(balance.stable_api_credits_remaining_monetary_value),
    ].join(" "),
  };
}
export type OrgTruth = Awaited<ReturnType<typeof orgTruth>>;
