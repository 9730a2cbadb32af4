import { expect, test } from "vitest";
import { evaluateRules } from "../../src/check/evaluateRules.js";
import { describeRun } from "../../src/commands/export.js";
import { loadExportConfig } from "../../src/config/exportConfig.js";
import { openWarehouse } from "../../src/load/database.js";
import { exportOnce, queryDb } from "../helpers/exportHarness.js";
import {
  errorBody,
  type HostileHandler,
  pageBody,
  resourcesPerTest,
  sendJson,
  validCall,
} from "../helpers/hostileApi.js";

const resources = resourcesPerTest();

/** Two calls, then the invoices listing answered by `invoices`. */
function handler(invoices: HostileHandler): HostileHandler {
  return (request, res) => {
    if (request.path === "/user/api-calls") {
      const first = request.query.get("page_token") === null;
      sendJson(res, 200, pageBody(first ? [validCall(1), validCall(2)] : [], first ? "p1" : null));
      return;
    }
    if (request.path === "/user/payment/invoices") return invoices(request, res);
    sendJson(res, 404, errorBody(404, "not found"));
  };
}

async function exportAgainst(invoices: HostileHandler) {
  const api = await resources.hostile(handler(invoices));
  const workspace = await resources.workspace();
  const result = await exportOnce({
    baseUrl: api.url,
    token: "hostile-token",
    flags: { db: workspace.db, out: workspace.out, operations: false },
    maxAttempts: 2,
  });
  return { ...result, db: workspace.db };
}

const INVOICE = {
  id: "in_1",
  created_at: "2026-11-01T02:00:00Z",
  status: "paid",
  lines: [{ id: "il_1", amount: 0.04, invoice_item: "ii_1" }],
};

test.each([
  [403, "forbidden"],
  [404, "not found"],
])(
  "a %i on the invoices listing is a warning: the calls are stored, the run succeeds",
  async (status, message) => {
    const { summary, exitCode, db } = await exportAgainst((_request, res) =>
      sendJson(res, status, errorBody(status, message)),
    );
    expect([summary.status, exitCode]).toEqual(["completed", 0]);
    expect(summary.invoices?.status).toBe("skipped");
    expect(
      summary.warnings.some((line) => line.startsWith(`invoices skipped: the API answered ${status} `)),
    ).toBe(true);
    expect(await queryDb(db, "SELECT count(*)::INTEGER AS n FROM api_calls")).toEqual([{ n: 2 }]);
  },
);

test("an invoice that does not validate goes to rejects with the reason; the others are stored (exit 4)", async () => {
  const bad = { id: "in_bad", created_at: "yesterday", lines: [] };
  const tooBig = { id: "in_big", created_at: "2026-11-01T00:00:00Z", total: 1e13 };
  const { summary, exitCode, db } = await exportAgainst((_request, res) =>
    sendJson(res, 200, pageBody([INVOICE, bad, tooBig, { created_at: "2026-11-01T00:00:00Z" }], null)),
  );
  expect([summary.status, exitCode]).toEqual(["partial", 4]);
  expect(summary.invoices).toMatchObject({ status: "stored", invoices: 1, lines: 1, rejected: 3 });
  const config = loadExportConfig({ flags: { db, out: `${db}.out` }, env: {} });
  expect(describeRun(summary, config)).toContain(
    "1 invoice stored (1 new), 1 invoice line, 3 rejected (see the rejects table)",
  );
  const rejects = await queryDb(db, "SELECT record_id, reason FROM rejects ORDER BY record_id NULLS LAST");
  expect(rejects.map((row) => row.record_id)).toEqual(["in_bad", "in_big", null]);
  expect(String(rejects[0]?.reason)).toContain("created_at");
  expect(String(rejects[1]?.reason)).toContain("more than 12 integer digits");
  expect(String(rejects[2]?.reason)).toContain("no id");
  // The amount is the digits sent: 0.04, not the double nearest to it.
  expect(await queryDb(db, "SELECT amount = DECIMAL '0.04' AS exact FROM invoice_lines")).toEqual([
    { exact: true },
  ]);
});

test("money keeps the digits sent, where a double would round them", async () => {
  const { db } = await exportAgainst((_request, res) =>
    sendJson(
      res,
      200,
      '{"next_page":null,"items":[{"id":"in_1","created_at":"2026-11-01T00:00:00Z","total":123456789012.345678,"amount_due":1e-6,"lines":[{"amount":900719925474.0993}]}]}',
    ),
  );
  const [row] = await queryDb(
    db,
    "SELECT total::VARCHAR AS total, amount_due::VARCHAR AS due, (SELECT amount::VARCHAR FROM invoice_lines) AS line FROM invoices",
  );
  expect(row).toEqual({ total: "123456789012.345678", due: "0.000001", line: "900719925474.099300" });
});

test("a listing that keeps failing leaves the calls stored and the run partial (exit 4)", async () => {
  const { summary, exitCode, db } = await exportAgainst((_request, res) =>
    sendJson(res, 500, errorBody(500, "boom")),
  );
  expect([summary.status, exitCode]).toEqual(["partial", 4]);
  expect(summary.invoices?.status).toBe("failed");
  expect(await queryDb(db, "SELECT count(*)::INTEGER AS n FROM api_calls")).toEqual([{ n: 2 }]);
});

test.each([
  [
    "hash",
    (stored: unknown) => typeof stored === "string" && stored !== "ada@example.com" && stored.length > 20,
  ],
  ["drop", (stored: unknown) => stored === null],
  ["keep", (stored: unknown) => stored === "ada@example.com"],
])("--email-column %s applies to the invoices' customer_email", async (policy, expected) => {
  const api = await resources.hostile(
    handler((_request, res) =>
      sendJson(res, 200, pageBody([{ ...INVOICE, customer_email: "ada@example.com" }], null)),
    ),
  );
  const workspace = await resources.workspace();
  await exportOnce({
    baseUrl: api.url,
    token: "hostile-token",
    flags: { db: workspace.db, out: workspace.out, operations: false, emailColumn: policy },
  });
  const [row] = await queryDb(workspace.db, "SELECT customer_email FROM invoices");
  expect(expected(row?.customer_email), String(row?.customer_email)).toBe(true);
});

test("a month whose calls were all rejected says its calls are missing, never agrees, and check says so", async () => {
  // A change in the calls' token format: every call of October is a reject, while the invoice of
  // October bills them.
  const calls = [1, 2, 3].map((n) =>
    validCall(n, { token: `api-${n}`, stripe_invoice_item_id: "ii_october", price: 50 }),
  );
  const invoice = {
    id: "in_oct",
    number: "OCT-1",
    created_at: "2026-11-01T02:00:00Z",
    status: "paid",
    currency: "usd",
    subtotal: 150,
    total: 150,
    amount_due: 150,
    amount_paid: 150,
    lines: [{ id: "il_1", amount: 150, invoice_item: "ii_october", description: "Zoo API usage, 2026-10" }],
  };
  const api = await resources.hostile((request, res) => {
    if (request.path === "/user/api-calls") {
      const first = request.query.get("page_token") === null;
      sendJson(res, 200, pageBody(first ? calls : [], first ? "p1" : null));
      return;
    }
    if (request.path === "/user/payment/invoices") return sendJson(res, 200, pageBody([invoice], null));
    sendJson(res, 404, errorBody(404, "not found"));
  });
  const workspace = await resources.workspace();
  const { exitCode } = await exportOnce({
    baseUrl: api.url,
    token: "hostile-token",
    flags: { db: workspace.db, out: workspace.out, operations: false },
    maxAttempts: 2,
  });
  expect(exitCode).toBe(4);
  const [month] = await queryDb(
    workspace.db,
    `SELECT status, rejected_calls::INTEGER AS rejected, usage_lines::VARCHAR AS billed, charged::VARCHAR AS charged
     FROM monthly_reconciliation WHERE month = DATE '2026-10-01'`,
  );
  expect(month).toEqual({
    status: "calls_missing",
    rejected: 3,
    billed: "150.000000",
    charged: "150.000000",
  });
  // The invoice's line is usage of the rejected calls, in the ledger at its amount.
  expect(
    await queryDb(
      workspace.db,
      "SELECT kind, reason, calls::INTEGER AS calls, billed_cost::VARCHAR AS cost FROM charges",
    ),
  ).toEqual([{ kind: "usage", reason: "calls_rejected", calls: 3, cost: "150.000000" }]);
  const warehouse = await openWarehouse(workspace.db, { readOnly: true });
  try {
    const alerts = await evaluateRules(
      warehouse.connection,
      { subjectBudgets: [], invoiceDifferenceUsd: "0" },
      { asOf: "2026-11-28", now: new Date("2026-11-28T00:00:00Z") },
    );
    expect(alerts).toEqual([
      expect.objectContaining({
        rule: "invoice-difference",
        period: "2026-10",
        unit: "usd",
        value: "150.000000",
        note: "calls missing: 3 calls of the month were rejected (see the rejects table)",
      }),
    ]);
  } finally {
    warehouse.close();
  }
});
