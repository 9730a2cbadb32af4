import { expect, test } from "vitest";
import { describeRun } from "../../src/commands/export.js";
import { loadExportConfig } from "../../src/config/exportConfig.js";
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
