import { expect, test } from "vitest";
import { spawnCli } from "../helpers/cli.js";
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
 * A file-size limit met while the invoices are written (not the calls): the run ends 2 with the
 * storage hint, as a full disk anywhere else does, its calls stay stored, and once the limit is
 * lifted the next run stores every invoice.
 */
const resources = resourcesPerTest();
const INVOICES = 600;
const invoice = (n: number) => ({
  id: `in_${n}`,
  status: "paid",
  created_at: "2026-10-01T00:00:00Z",
  currency: "usd",
  subtotal: 150,
  total: 150,
  description: `invoice ${n} `.repeat(20),
  lines: Array.from({ length: 300 }, (_, k) => ({
    id: `il_${n}_${k}`,
    amount: 0.5,
    invoice_item: `ii_${n}_${k}`,
  })),
});

test("a file-size limit during the invoices write: exit 2 with the disk hint; the next run stores them", async () => {
  const api = await startHostileApi((request, res) => {
    const start = Number(request.query.get("page_token") ?? 0);
    if (request.path === "/user/api-calls")
      return sendJson(
        res,
        200,
        start === 0 ? pageBody([validCall(1), validCall(2)], "1") : pageBody([], null),
      );
    if (request.path === "/user/payment/invoices") {
      const items = Array.from({ length: Math.max(0, Math.min(100, INVOICES - start)) }, (_, k) =>
        invoice(start + k),
      );
      return sendJson(res, 200, pageBody(items, items.length === 0 ? null : String(start + 100)));
    }
    sendJson(res, 404, errorBody(404, "not found"));
  });
  resources.onCleanup(() => api.close());
  const { db, out } = await resources.workspace();
  const env = { ZOO_API_TOKEN: "t", ZOO_HOST: api.url };
  const args = ["export", "--no-operations", "--db", db, "--out", out];
  // ulimit -f is in KiB: the schema, the calls and each spool file fit; 180,000 invoice lines do not.
  const limited = await spawnCli(
    ["-c", `ulimit -f 6144; exec "${process.execPath}" "$@"`, "bash", "CLI", ...args],
    {
      env,
      shell: "/bin/bash",
    },
  );
  expect(limited.code, limited.stderr).toBe(2);
  // The database or a spool file beside it, whichever meets the limit first: either way the storage.
  expect(limited.stderr).toMatch(/error: Cannot write the (database|spool file) /);
  expect(limited.stderr).toMatch(/hint: A file-size limit was hit/);
  expect(limited.stderr).not.toMatch(/unexpected failure/);
  const again = await spawnCli(args, { env });
  expect(again.code, again.stderr).toBe(0);
  expect(await queryDb(db, "SELECT count(*)::INTEGER AS n FROM api_calls")).toEqual([{ n: 2 }]);
  expect(await queryDb(db, "SELECT count(*)::INTEGER AS n FROM invoice_lines")).toEqual([
    { n: INVOICES * 300 },
  ]);
  expect(await queryDb(db, "SELECT count(*)::INTEGER AS n FROM runs WHERE status = 'running'")).toEqual([
    { n: 0 },
  ]);
});
