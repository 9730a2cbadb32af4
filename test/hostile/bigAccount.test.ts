import { expect, test } from "vitest";
import { runCli } from "../helpers/cli.js";
import { queryDb } from "../helpers/exportHarness.js";
import {
  errorBody,
  pageBody,
  resourcesPerTest,
  sendJson,
  startHostileApi,
  validCall,
} from "../helpers/hostileApi.js";

/**
 * An org account far larger than any seen (100,000 API tokens, 20,000 members, 5,000 service
 * accounts, 5,000 invoices of 300 lines), exported by the CLI in org scope: every listing is
 * stored whole, the run ends 0, and the summary carries the peak RSS (of the process it runs in:
 * here the test worker, since the CLI runs in-process). On this machine (2 cores)
 * DuckDB runs with the smallest memory limit the exporter ever sets (one thread's share), so this is
 * also the test at that limit.
 */
const resources = resourcesPerTest();
const ORG = "0a1b2c3d-0000-4000-8000-0000000000f0";
/**
 * The full size runs in `npm run test:long` (BIG_ACCOUNT_SCALE=1: about 25 s on 2 cores, and 450 MB
 * of peak RSS as a process of its own); `npm test` runs a fifth of it, the same shape.
 */
const SCALE = Number(process.env.BIG_ACCOUNT_SCALE ?? 0.2);
const COUNTS = {
  tokens: 100_000 * SCALE,
  members: 20_000 * SCALE,
  serviceAccounts: 5_000 * SCALE,
  invoices: 5_000 * SCALE,
  lines: 300,
};
const uuid = (kind: number, n: number) =>
  `0a1b2c3d-${String(kind).padStart(4, "0")}-4000-8000-${String(n).padStart(12, "0")}`;
const created = "2026-01-01T00:00:00Z";

const token = (n: number) => ({
  id: uuid(1, n),
  user_id: uuid(9, 1),
  label: `token ${n}`,
  token: `api-****${String(n % 10_000).padStart(4, "0")}`,
  is_valid: true,
  created_at: created,
  updated_at: created,
});
const serviceAccount = (n: number) => ({ ...token(n), id: uuid(2, n), org_id: ORG, user_id: undefined });
const member = (n: number) => ({
  id: uuid(3, n),
  email: `member${n}@example.com`,
  name: `Member ${n}`,
  role: "member",
  created_at: created,
  updated_at: created,
});
const invoice = (n: number) => ({
  id: `in_${n}`,
  status: "paid",
  created_at: created,
  currency: "usd",
  subtotal: 150,
  total: 150,
  lines: Array.from({ length: COUNTS.lines }, (_, k) => ({
    id: `il_${n}_${k}`,
    amount: 0.5,
    currency: "usd",
    invoice_item: `ii_${n}_${k}`,
  })),
});

/** Serves `count` items made by `make`, `limit` a page, the offset as the page token. */
function listing(make: (n: number) => unknown, count: number, query: URLSearchParams): string {
  const start = Number(query.get("page_token") ?? 0);
  const limit = Math.min(Number(query.get("limit") ?? 100), 10_000);
  const items = Array.from({ length: Math.max(0, Math.min(limit, count - start)) }, (_, k) =>
    make(start + k),
  );
  return pageBody(items, items.length === 0 ? null : String(start + limit));
}

/**
 * The invoice pages, made from one page's text with the invoice numbers put in: building 30,000
 * line objects a page would make the stand-in, not the exporter, the slow side of the test.
 */
function invoicePages(): (query: URLSearchParams) => string {
  let template: { limit: number; text: string } | undefined;
  return (query) => {
    const start = Number(query.get("page_token") ?? 0);
    const limit = Number(query.get("limit") ?? 100);
    if (Math.min(limit, COUNTS.invoices - start) < limit) return listing(invoice, COUNTS.invoices, query);
    if (template?.limit !== limit) {
      const text = JSON.stringify(Array.from({ length: limit }, (_, k) => invoice(k)));
      template = { limit, text: text.replace(/_(\d+)(["_])/g, "_@$1$2") };
    }
    const items = template.text.replace(/_@(\d+)/g, (_, k: string) => `_${start + Number(k)}`);
    return `{"next_page":${JSON.stringify(String(start + limit))},"items":${items}}`;
  };
}

test("an org of 100k tokens, 20k members, 5k service accounts and 5k invoices of 300 lines: exit 0, all stored", async () => {
  const invoicePage = invoicePages();
  const api = await startHostileApi(
    (request, res) => {
      const { path, query } = request;
      if (path === "/org") return sendJson(res, 200, { id: ORG, name: "big" });
      if (path === "/org/api-calls")
        return sendJson(
          res,
          200,
          query.has("page_token") ? pageBody([], null) : pageBody([validCall(1, { org_id: ORG })], "p1"),
        );
      if (path === "/user/api-tokens") return sendJson(res, 200, listing(token, COUNTS.tokens, query));
      if (path === "/org/members") return sendJson(res, 200, listing(member, COUNTS.members, query));
      if (path === "/org/service-accounts")
        return sendJson(res, 200, listing(serviceAccount, COUNTS.serviceAccounts, query));
      if (path === "/org/payment/invoices") return sendJson(res, 200, invoicePage(query));
      sendJson(res, 404, errorBody(404, "not found"));
    },
    { ownsSpenderListings: true },
  );
  resources.onCleanup(() => api.close());
  const { db, out } = await resources.workspace();
  const result = await runCli(
    ["export", "--db", db, "--out", out, "--scope", "org", "--no-operations", "--json"],
    { env: { ZOO_API_TOKEN: "big-account-token", ZOO_HOST: api.url } },
  );
  expect(result.code, result.stderr.slice(-2000)).toBe(0);
  const summary = JSON.parse(result.stdout.trim().split("\n").at(-1) ?? "{}");
  expect(summary.spenders).toMatchObject({
    status: "stored",
    api_tokens: COUNTS.tokens,
    org_members: COUNTS.members,
    service_accounts: COUNTS.serviceAccounts,
    rejected: 0,
  });
  expect(summary.invoices).toMatchObject({
    status: "stored",
    invoices: COUNTS.invoices,
    lines: COUNTS.invoices * COUNTS.lines,
  });
  expect(summary.peak_rss_mb).toBeGreaterThan(0);
  const [stored] = await queryDb(
    db,
    `SELECT (SELECT count(*) FROM api_tokens)::INTEGER AS tokens, (SELECT count(*) FROM org_members)::INTEGER AS members,
            (SELECT count(*) FROM service_accounts)::INTEGER AS accounts, (SELECT count(*) FROM invoices)::INTEGER AS invoices,
            (SELECT count(*) FROM invoice_lines)::INTEGER AS lines, (SELECT sum(amount)::VARCHAR FROM invoice_lines) AS billed`,
  );
  expect(stored).toEqual({
    tokens: COUNTS.tokens,
    members: COUNTS.members,
    accounts: COUNTS.serviceAccounts,
    invoices: COUNTS.invoices,
    lines: COUNTS.invoices * COUNTS.lines,
    billed: (COUNTS.invoices * COUNTS.lines * 0.5).toFixed(6),
  });
  console.info(
    `big account: peak RSS ${summary.peak_rss_mb} MB, ${summary.seconds} s (tokens and members ${summary.spenders.seconds} s, invoices ${summary.invoices.seconds} s)`,
  );
});
