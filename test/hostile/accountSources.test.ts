import { readdir } from "node:fs/promises";
import { expect, test } from "vitest";
import type { ZooUsageError } from "../../src/errors.js";
import { exportOnce, queryDb } from "../helpers/exportHarness.js";
import {
  errorBody,
  type HostileHandler,
  pageBody,
  pagedHandler,
  resourcesPerTest,
  sendJson,
  startHostileApi,
  validCall,
} from "../helpers/hostileApi.js";

/**
 * The account sources (tokens, members, service accounts, invoices, balance) against a stand-in API
 * that misbehaves as an adversary would: each ends with the exit code of the failure-kind table
 * (src/sources/outcome.ts), keeps what was stored, leaves no run 'running', and the next run goes on.
 */
const resources = resourcesPerTest();
const calls = pagedHandler([{ items: [validCall(1), validCall(2)] }, { items: [] }]);

const TOKEN = {
  user_id: "0a1b2c3d-0000-4000-8000-000000000001",
  label: "laptop",
  token: "api-****ab12",
  is_valid: true,
  created_at: "2026-01-01T00:00:00Z",
  updated_at: "2026-01-01T00:00:00Z",
};
const tokenId = (n: number) => `0a1b2c3d-1111-4000-8000-${String(n).padStart(12, "0")}`;
const INVOICE = {
  id: "in_1",
  status: "paid",
  created_at: "2026-11-01T00:00:00Z",
  currency: "usd",
  total: 0.04,
  subtotal: 0.04,
  lines: [{ id: "il_1", amount: 0.04, invoice_item: "ii_1" }],
};

/** Calls as `calls`, and the account's paths answered by `account` (404 when it returns false). */
function withAccount(account: Record<string, HostileHandler>): HostileHandler {
  return (request, res) => {
    const answer = account[request.path];
    if (answer !== undefined) return answer(request, res);
    if (request.path === "/user/api-calls") return calls(request, res);
    sendJson(res, 404, errorBody(404, "not found"));
  };
}

/** One export against `handler`, into a new workspace or the one `into` names (a next run). */
async function exportAgainst(handler: HostileHandler, into?: { db: string; out: string }) {
  const api = await startHostileApi(handler, { ownsSpenderListings: true });
  resources.onCleanup(() => api.close());
  const { db, out } = into ?? (await resources.workspace());
  const run = await exportOnce({
    baseUrl: api.url,
    token: "t",
    flags: { db, out, operations: false },
    maxAttempts: 2,
  })
    .then((result) => ({ ...result, error: undefined }))
    .catch((error: unknown) => ({ summary: undefined, exitCode: (error as ZooUsageError).exitCode, error }));
  const count = async (table: string) =>
    Number((await queryDb(db, `SELECT count(*) AS n FROM ${table}`))[0]?.n);
  const runs = await queryDb(db, "SELECT status FROM runs ORDER BY started_at");
  // Whatever the API did, the output stays small: the summary is a few KB.
  expect(JSON.stringify(run.summary ?? {}).length).toBeLessThan(8192);
  return { ...run, api, db, out, count, runs };
}

/** The API mended: tokens and invoices as they should be. */
const mended = withAccount({
  "/user/api-tokens": (_request, res) =>
    sendJson(
      res,
      200,
      pageBody(
        [
          { ...TOKEN, id: tokenId(1) },
          { ...TOKEN, id: tokenId(2) },
        ],
        null,
      ),
    ),
  "/user/payment/invoices": (_request, res) => sendJson(res, 200, pageBody([INVOICE], null)),
});

test("a tokens listing that repeats its next_page: exit 4 naming the listing, within a few requests; invoices still stored", async () => {
  const run = await exportAgainst(
    withAccount({
      "/user/api-tokens": (request, res) =>
        sendJson(res, 200, pageBody([{ ...TOKEN, id: tokenId(request.n) }], "same-token")),
      "/user/payment/invoices": (_request, res) => sendJson(res, 200, pageBody([INVOICE], null)),
    }),
  );
  expect(run.exitCode).toBe(4);
  expect(run.summary?.spenders?.status).toBe("failed");
  expect(run.summary?.message).toMatch(
    /Pagination anomaly in GET \/user\/api-tokens: .*handed out the page token/,
  );
  expect(
    run.api.requests.filter((request) => request.path === "/user/api-tokens").length,
  ).toBeLessThanOrEqual(3);
  // What was listed before the anomaly is kept, and the sources after it ran.
  expect(await run.count("api_tokens")).toBe(2);
  expect(await run.count("invoices")).toBe(1);
  expect(run.runs).toEqual([{ status: "partial" }]);
  const next = await exportAgainst(mended, run);
  expect(next.exitCode).toBe(0);
  expect(await next.count("api_calls")).toBe(2);
  expect(next.runs).toEqual([{ status: "partial" }, { status: "completed" }]);
});

test("a tokens listing that hands out fresh tokens without advancing: exit 4 on the page that brings nothing new", async () => {
  const run = await exportAgainst(
    withAccount({
      "/user/api-tokens": (request, res) =>
        sendJson(res, 200, pageBody([{ ...TOKEN, id: tokenId(1) }], `fresh-${request.n}`)),
    }),
  );
  expect(run.exitCode).toBe(4);
  expect(run.summary?.message).toMatch(
    /GET \/user\/api-tokens: a page brought only API tokens listed before/,
  );
  expect(
    run.api.requests.filter((request) => request.path === "/user/api-tokens").length,
  ).toBeLessThanOrEqual(3);
  expect(await run.count("api_tokens")).toBe(1);
});

test("an invoice id listed twice: one warning with the count, the first copy stored, counts equal what is stored", async () => {
  const copy = { ...INVOICE, total: 9.99, subtotal: 9.99 };
  const second = { ...INVOICE, id: "in_2", lines: [{ id: "il_2", amount: 0.04, invoice_item: "ii_2" }] };
  const run = await exportAgainst(
    withAccount({
      "/user/payment/invoices": (request, res) =>
        sendJson(
          res,
          200,
          request.query.has("page_token") ? pageBody([copy, second], null) : pageBody([INVOICE], "p1"),
        ),
    }),
  );
  expect(run.exitCode).toBe(0);
  expect(run.summary?.invoices).toMatchObject({ status: "stored", invoices: 2, lines: 2 });
  expect(run.summary?.warnings.filter((line) => /listed 1 invoice\(s\) again/.test(line))).toHaveLength(1);
  expect(
    await queryDb(run.db, "SELECT id, CAST(total AS VARCHAR) AS total FROM invoices ORDER BY id"),
  ).toEqual([
    { id: "in_1", total: "0.040000" },
    { id: "in_2", total: "0.040000" },
  ]);
  expect(await run.count("invoice_lines")).toBe(2);
});

test("a 401 on a token page while an earlier batch commits: exit 3, the stored batches kept, no crash", async () => {
  // Ten full pages of 1,000 tokens fill two batches of 5,000: the second waits for the first's
  // commit, and the next page is answered 401 in that wait, before anything awaits it.
  const pages = 10;
  const page = (n: number) =>
    Array.from({ length: 1000 }, (_, i) => ({ ...TOKEN, id: tokenId(n * 1000 + i) }));
  const run = await exportAgainst(
    withAccount({
      "/user/api-tokens": (request, res) => {
        const n = Number(request.query.get("page_token")?.slice(1) ?? 0);
        if (n >= pages) sendJson(res, 401, errorBody(401, "unauthorized"));
        else sendJson(res, 200, pageBody(page(n), `p${n + 1}`));
      },
    }),
  );
  expect(run.exitCode).toBe(3);
  expect((run.error as ZooUsageError).code).toBe("api.unauthorized");
  expect(await run.count("api_calls")).toBe(2);
  expect(await run.count("api_tokens")).toBe(pages * 1000);
  expect(run.runs).toEqual([{ status: "failed" }]);
});

test("a 401 during the invoices: exit 3, the calls and tokens kept, the run recorded failed, Parquet written", async () => {
  const run = await exportAgainst(
    withAccount({
      "/user/api-tokens": (_request, res) =>
        sendJson(res, 200, pageBody([{ ...TOKEN, id: tokenId(1) }], null)),
      "/user/payment/invoices": (_request, res) => sendJson(res, 401, errorBody(401, "unauthorized")),
    }),
  );
  expect(run.exitCode).toBe(3);
  expect((run.error as ZooUsageError).code).toBe("api.unauthorized");
  expect(await run.count("api_calls")).toBe(2);
  expect(await run.count("api_tokens")).toBe(1);
  expect(run.runs).toEqual([{ status: "failed" }]);
  // The balance after it did not run: a 401 stops the plan.
  expect(run.api.requests.some((request) => request.path === "/user/payment/balance")).toBe(false);
  const next = await exportAgainst(mended, run);
  expect(next.exitCode).toBe(0);
  expect([await next.count("invoices"), await next.count("api_calls")]).toEqual([1, 2]);
  expect(next.runs).toEqual([{ status: "failed" }, { status: "completed" }]);
  expect(
    (await readdir(`${run.out}/api_calls`, { recursive: true })).some((f) => f.endsWith(".parquet")),
  ).toBe(true);
});

test("3,000 API tokens in one listing (575 ran DuckDB out of memory row by row): exit 0, all stored", async () => {
  const tokens = Array.from({ length: 3000 }, (_, k) => ({ ...TOKEN, id: tokenId(k), label: `token ${k}` }));
  const run = await exportAgainst(
    withAccount({
      "/user/api-tokens": (request, res) => {
        const start = Number(request.query.get("page_token") ?? 0);
        const limit = Number(request.query.get("limit"));
        const page = tokens.slice(start, start + limit);
        sendJson(res, 200, pageBody(page, page.length === 0 ? null : String(start + limit)));
      },
    }),
  );
  expect(run.exitCode).toBe(0);
  expect(run.summary?.spenders).toMatchObject({ status: "stored", api_tokens: 3000, rejected: 0 });
  expect(await run.count("api_tokens")).toBe(3000);
});
