import { readdir } from "node:fs/promises";
import { expect, test } from "vitest";
import { openWarehouse } from "../../src/load/database.js";
import { MAX_RECORD_BYTES } from "../../src/transform/limits.js";
import { exportOnce, queryDb, writeDb } from "../helpers/exportHarness.js";
import {
  errorBody,
  HOSTILE_USER_ID,
  type HostileHandler,
  pageBody,
  resourcesPerTest,
  sendJson,
  startHostileApi,
  validCall,
} from "../helpers/hostileApi.js";

/**
 * Account records under the rules the calls follow: one invoice, token or balance that cannot be
 * stored is a reject with its reason, and never stops the step or the night; any text a column
 * can hold is stored as sent; money is exact, or rounded half-even with the printed text kept.
 */
const resources = resourcesPerTest();

/** One call, then whatever `account` answers for the account listings. */
function handler(account: HostileHandler): HostileHandler {
  return (request, res) => {
    if (request.path === "/user/api-calls") {
      const first = request.query.get("page_token") === null;
      sendJson(res, 200, pageBody(first ? [validCall(1)] : [], first ? "p1" : null));
      return;
    }
    return account(request, res);
  };
}

const notFound: HostileHandler = (_request, res) => sendJson(res, 404, errorBody(404, "not found"));

async function setUp(account: HostileHandler, options: { ownsSpenderListings?: boolean } = {}) {
  const api = await startHostileApi(handler(account), options);
  resources.onCleanup(() => api.close());
  const workspace = await resources.workspace();
  const run = () =>
    exportOnce({
      baseUrl: api.url,
      token: "hostile-token",
      flags: { db: workspace.db, out: workspace.out, operations: false },
      maxAttempts: 2,
    });
  return { run, db: workspace.db, out: workspace.out };
}

const CONTROL_TEXT = "line\nbreak\ttab\u0001\u001b[31mred\u007f";

const GOOD_INVOICE =
  '{"id":"in_ok","created_at":"2026-11-01T00:00:00Z","total":1.0000005,"description":' +
  `${JSON.stringify(CONTROL_TEXT)},"metadata":{"__proto__":"kept"},"__proto__":{"n":1.50},` +
  '"lines":[{"amount":0.12345655e1,"invoice_item":"ii_1"}]}';
const SURROGATE_KEY = '{"id":"in_key","created_at":"2026-11-01T00:00:00Z","metadata":{"\\ud800k":"v"}}';
const BIG_DESCRIPTION = JSON.stringify({
  id: "in_big",
  created_at: "2026-11-01T00:00:00Z",
  description: "x".repeat(20_000_000),
});

test("an invoice with a lone surrogate in a metadata key and one of 20 MB are rejects; the others store, and the next run continues", async () => {
  let items = [GOOD_INVOICE, SURROGATE_KEY, BIG_DESCRIPTION];
  const { run, db } = await setUp((request, res) =>
    request.path === "/user/payment/invoices"
      ? sendJson(res, 200, `{"next_page":null,"items":[${items.join(",")}]}`)
      : notFound(request, res),
  );
  const first = await run();
  expect([first.summary.status, first.exitCode]).toEqual(["partial", 4]);
  expect(first.summary.invoices).toMatchObject({ status: "stored", invoices: 1, lines: 1, rejected: 2 });
  const rejects = await queryDb(db, "SELECT record_id, reason FROM rejects ORDER BY record_id");
  expect(rejects).toEqual([
    {
      record_id: "in_big",
      reason: expect.stringMatching(/^invoice: record is \d+ bytes as rows, above the 16777216-byte limit/),
    },
    {
      record_id: "in_key",
      reason: "invoice: string holds a lone UTF-16 surrogate: not valid Unicode text (at metadata.\uFFFDk)",
    },
  ]);
  const stored = await queryDb(
    db,
    `SELECT id, description, metadata, extra, total::VARCHAR AS total, money_raw, money_flags,
       (SELECT amount::VARCHAR FROM invoice_lines) AS line_amount,
       (SELECT money_raw FROM invoice_lines) AS line_raw
     FROM invoices`,
  );
  expect(stored).toEqual([
    {
      id: "in_ok",
      description: CONTROL_TEXT,
      metadata: '{"__proto__":"kept"}',
      extra: '{"__proto__":{"n":1.50}}',
      total: "1.000000",
      money_raw: '{"total":"1.0000005"}',
      money_flags: "rounded",
      line_amount: "1.234566",
      line_raw: '{"amount":"1.2345655"}',
    },
  ]);
  expect(await queryDb(db, "SELECT count(*)::INTEGER AS n FROM api_calls")).toEqual([{ n: 1 }]);
  // The 20 MB record is kept cut (MAX_REJECT_RAW_CHARS), so the rejects table stays small.
  const [kept] = await queryDb(
    db,
    "SELECT length(raw_json)::INTEGER AS n FROM rejects WHERE record_id = 'in_big'",
  );
  expect(Number(kept?.n)).toBeLessThan(1_100_000);

  // The API mends the two: the next run stores them beside the first, and what it had is kept.
  const mendedBig = JSON.stringify({ id: "in_big", created_at: "2026-11-01T00:00:00Z", description: "x" });
  items = [GOOD_INVOICE, SURROGATE_KEY.replace("\\ud800", ""), mendedBig];
  const second = await run();
  expect([second.summary.status, second.exitCode]).toEqual(["completed", 0]);
  expect(second.summary.invoices).toMatchObject({ invoices: 3, new_invoices: 2, rejected: 0 });
  expect(await queryDb(db, "SELECT id FROM invoices ORDER BY id")).toEqual([
    { id: "in_big" },
    { id: "in_key" },
    { id: "in_ok" },
  ]);
  expect(await queryDb(db, "SELECT count(*)::INTEGER AS n FROM api_calls")).toEqual([{ n: 1 }]);
  expect(await queryDb(db, "SELECT count(*)::INTEGER AS n FROM rejects")).toEqual([{ n: 2 }]);
});

const TOKEN = {
  id: "0a1b2c3d-0000-4000-8000-0000000000aa",
  user_id: HOSTILE_USER_ID,
  token: "****ab12",
  is_valid: true,
  created_at: "2026-01-01T00:00:00Z",
  updated_at: "2026-01-01T00:00:00Z",
};

test("a token with a lone surrogate or a 17 MB label is a reject; a label with control characters is stored", async () => {
  const items = [
    { ...TOKEN, label: CONTROL_TEXT },
    { ...TOKEN, id: "0a1b2c3d-0000-4000-8000-0000000000ab", label: "x".repeat(MAX_RECORD_BYTES + 1) },
  ];
  const body = `{"next_page":null,"items":[${JSON.stringify(items).slice(1, -1)},${JSON.stringify({ ...TOKEN, id: "0a1b2c3d-0000-4000-8000-0000000000ac" }).replace('"token"', '"label":"\\udc00","token"')}]}`;
  const { run, db } = await setUp(
    (request, res) =>
      request.path === "/user/api-tokens" ? sendJson(res, 200, body) : notFound(request, res),
    { ownsSpenderListings: true },
  );
  const first = await run();
  expect(first.exitCode).toBe(4);
  expect(await queryDb(db, "SELECT id, label FROM api_tokens")).toEqual([
    { id: TOKEN.id, label: CONTROL_TEXT },
  ]);
  const rejects = await queryDb(db, "SELECT record_id, reason FROM rejects ORDER BY record_id");
  expect(rejects).toEqual([
    {
      record_id: "0a1b2c3d-0000-4000-8000-0000000000ab",
      reason: expect.stringMatching(/^api_token: record is \d+ bytes as rows, above the 16777216-byte limit/),
    },
    {
      record_id: "0a1b2c3d-0000-4000-8000-0000000000ac",
      reason: expect.stringMatching(/lone UTF-16 surrogate/),
    },
  ]);
  expect(await queryDb(db, "SELECT count(*)::INTEGER AS n FROM api_calls")).toEqual([{ n: 1 }]);
  const second = await run();
  expect(second.exitCode).toBe(4);
  expect(await queryDb(db, "SELECT count(*)::INTEGER AS n FROM api_tokens")).toEqual([{ n: 1 }]);
});

function balance(monthly: string, stable: string, extra = ""): string {
  return `{"created_at":"2026-01-01T00:00:00Z","updated_at":"2026-01-01T00:00:00Z","monthly_api_credits_remaining":1,"monthly_api_credits_remaining_monetary_value":${monthly},"stable_api_credits_remaining":2,"stable_api_credits_remaining_monetary_value":${stable}${extra}}`;
}

test("a balance of two values at the DECIMAL(18,6) maximum is stored and summed; the Parquet dataset is written", async () => {
  let body = balance('"999999999999.999999"', '"999999999999.999999"', ',"__proto__":{"k":"v"}');
  const { run, db, out } = await setUp((request, res) =>
    request.path === "/user/payment/balance" ? sendJson(res, 200, body) : notFound(request, res),
  );
  const first = await run();
  expect([first.summary.status, first.exitCode]).toEqual(["completed", 0]);
  expect(first.summary.balance).toMatchObject({ status: "stored", remaining_usd: "1999999999999.999998" });
  expect((await readdir(`${out}/api_calls`)).length).toBeGreaterThan(0);
  expect(await queryDb(db, "SELECT extra, money_raw FROM balance_snapshots")).toEqual([
    { extra: '{"__proto__":{"k":"v"}}', money_raw: null },
  ]);
  // The next snapshot has more decimals than a column holds: rounded, its digits kept, and the
  // credit views sum the two snapshots without overflowing.
  body = balance("0.0000015", '"999999999999.999999"');
  const second = await run();
  expect([second.summary.status, second.exitCode]).toEqual(["completed", 0]);
  expect(
    await queryDb(
      db,
      "SELECT monthly_api_credits_remaining_monetary_value::VARCHAR AS monthly, money_raw, money_flags FROM balance_snapshots ORDER BY taken_at",
    ),
  ).toEqual([
    { monthly: "999999999999.999999", money_raw: null, money_flags: null },
    {
      monthly: "0.000002",
      money_raw: '{"monthly_api_credits_remaining_monetary_value":"0.0000015"}',
      money_flags: "rounded",
    },
  ]);
  expect(await queryDb(db, "SELECT consumed_usd::VARCHAR AS consumed FROM credit_burn")).toEqual([
    { consumed: "999999999999.999997" },
  ]);
  expect(await queryDb(db, "SELECT remaining_usd::VARCHAR AS remaining FROM credit_runway")).toEqual([
    { remaining: "1000000000000.000001" },
  ]);
});

test("a warehouse made before money_raw and money_flags gains them on open, where a new one has them", async () => {
  const workspace = await resources.workspace();
  const fresh = await openWarehouse(workspace.db);
  fresh.close();
  const columnsSql =
    "SELECT table_name AS t, list(column_name ORDER BY column_index) AS c FROM duckdb_columns() WHERE table_name IN ('invoices', 'invoice_lines', 'balance_snapshots') GROUP BY ALL ORDER BY t";
  const expected = await queryDb(workspace.db, columnsSql);
  for (const table of ["invoices", "invoice_lines", "balance_snapshots"])
    await writeDb(
      workspace.db,
      `ALTER TABLE ${table} DROP COLUMN money_raw; ALTER TABLE ${table} DROP COLUMN money_flags;`,
    );
  expect(await queryDb(workspace.db, columnsSql)).not.toEqual(expected);
  const upgraded = await openWarehouse(workspace.db);
  upgraded.close();
  expect(await queryDb(workspace.db, columnsSql)).toEqual(expected);
  expect(expected.map((row) => (row.c as string[]).slice(-2))).toEqual([
    ["money_raw", "money_flags"],
    ["money_raw", "money_flags"],
    ["money_raw", "money_flags"],
  ]);
});

test("a balance with a lone surrogate in a subscription_details key is a reject with the reason; the next run stores", async () => {
  let body = balance('"5"', '"1"', ',"subscription_details":{"\\ud800plan":"pro"}');
  const { run, db } = await setUp((request, res) =>
    request.path === "/user/payment/balance" ? sendJson(res, 200, body) : notFound(request, res),
  );
  const first = await run();
  expect([first.summary.status, first.exitCode]).toEqual(["partial", 4]);
  expect(await queryDb(db, "SELECT reason FROM rejects")).toEqual([
    {
      reason: expect.stringContaining(
        "lone UTF-16 surrogate: not valid Unicode text (at subscription_details.\uFFFDplan)",
      ),
    },
  ]);
  expect(await queryDb(db, "SELECT count(*)::INTEGER AS n FROM balance_snapshots")).toEqual([{ n: 0 }]);
  expect(await queryDb(db, "SELECT count(*)::INTEGER AS n FROM api_calls")).toEqual([{ n: 1 }]);
  body = balance('"5"', '"1"', ',"subscription_details":{"plan":"pro"}');
  const second = await run();
  expect([second.summary.status, second.exitCode]).toEqual(["completed", 0]);
  expect(await queryDb(db, "SELECT subscription_details FROM balance_snapshots")).toEqual([
    { subscription_details: '{"plan":"pro"}' },
  ]);
});

test("an invoice nested 100,000 levels deep is a reject naming the depth; the page's other invoice stores", async () => {
  const deep = `${"[".repeat(100_000)}${"]".repeat(100_000)}`;
  const { run, db } = await setUp((request, res) =>
    request.path === "/user/payment/invoices"
      ? sendJson(
          res,
          200,
          `{"next_page":null,"items":[{"id":"in_deep","created_at":"2026-11-01T00:00:00Z","extra_field":${deep}},{"id":"in_ok","created_at":"2026-11-01T00:00:00Z"}]}`,
        )
      : notFound(request, res),
  );
  const result = await run();
  expect([result.summary.status, result.exitCode]).toEqual(["partial", 4]);
  expect(result.summary.invoices).toMatchObject({ status: "stored", invoices: 1, rejected: 1 });
  expect(await queryDb(db, "SELECT record_id, reason, raw_json FROM rejects")).toEqual([
    {
      record_id: "in_deep",
      reason: expect.stringContaining("JSON nested deeper than 1000 levels"),
      raw_json: expect.stringContaining("nested too deeply to write"),
    },
  ]);
  expect(await queryDb(db, "SELECT id FROM invoices")).toEqual([{ id: "in_ok" }]);
});
