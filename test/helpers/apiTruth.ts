/**
 * An independent view of what the API lists, built with plain fetch and no zoo-usage code: the
 * ground truth an export is compared with.
 */
export interface TruthCall {
  id: string;
  created_at: string;
  updated_at: string;
  endpoint: string | null;
  price: string | null;
  completed_at: string | null;
  user_id: string;
  org_id: string | null;
  /** The call's token as the listing shows it. */
  token: string;
}

/** Every call `path` lists for the token (GET /user/api-calls by default, or /org/api-calls). */
export async function listAllCalls(
  baseUrl: string,
  token: string,
  path = "/user/api-calls",
): Promise<TruthCall[]> {
  const calls: TruthCall[] = [];
  let pageToken: string | null = null;
  for (let requests = 0; requests < 100_000; requests++) {
    const url = new URL(path, baseUrl);
    url.searchParams.set("limit", "10000");
    if (pageToken === null) url.searchParams.set("sort_by", "created_at_ascending");
    else url.searchParams.set("page_token", pageToken);
    const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
    if (!response.ok) throw new Error(`truth listing failed: ${response.status} ${await response.text()}`);
    const body = (await response.json()) as { items: Record<string, unknown>[]; next_page: string | null };
    for (const item of body.items) {
      calls.push({
        id: String(item.id),
        created_at: String(item.created_at),
        updated_at: String(item.updated_at),
        endpoint: typeof item.endpoint === "string" ? item.endpoint : null,
        price: item.price === null || item.price === undefined ? null : String(item.price),
        completed_at: typeof item.completed_at === "string" ? item.completed_at : null,
        user_id: String(item.user_id),
        org_id: typeof item.org_id === "string" ? item.org_id : null,
        token: String(item.token),
      });
    }
    if (body.next_page === null) return calls;
    pageToken = body.next_page;
  }
  throw new Error("truth listing did not end");
}

/** A decimal string as an exact integer number of micro-dollars. */
export function toMicros(decimal: string): bigint {
  const negative = decimal.startsWith("-");
  const [whole = "0", fraction = ""] = decimal.replace(/^-/, "").split(".");
  if (fraction.replace(/0+$/, "").length > 6) throw new Error(`more than 6 decimals: ${decimal}`);
  const micros = BigInt(whole) * 1_000_000n + BigInt(`${fraction}000000`.slice(0, 6));
  return negative ? -micros : micros;
}

/** Exact sums of price per UTC day of created_at, and the grand total, in micro-dollars. */
export function sumsByDay(calls: readonly TruthCall[]): Map<string, bigint> {
  const sums = new Map<string, bigint>();
  for (const call of calls) {
    const day = new Date(call.created_at).toISOString().slice(0, 10);
    sums.set(day, (sums.get(day) ?? 0n) + (call.price === null ? 0n : toMicros(call.price)));
  }
  return sums;
}
