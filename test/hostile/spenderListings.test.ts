import { expect, test } from "vitest";
import { exportOnce, queryDb, tempWorkspace } from "../helpers/exportHarness.js";
import {
  errorBody,
  type HostileHandler,
  pagedHandler,
  sendJson,
  startHostileApi,
  validCall,
} from "../helpers/hostileApi.js";

/**
 * GET /user/api-tokens (and the org listings) after the calls: a token that may not read them gets
 * a warning and a successful run; a listing that keeps failing makes the run partial, with the
 * calls already committed kept.
 */
const calls = pagedHandler([{ items: [validCall(1), validCall(2)] }, { items: [] }]);

function withTokens(answer: HostileHandler): HostileHandler {
  return (request, res) => (request.path === "/user/api-tokens" ? answer(request, res) : calls(request, res));
}

async function exportAgainst(handler: HostileHandler) {
  const api = await startHostileApi(handler, { ownsSpenderListings: true });
  const workspace = await tempWorkspace();
  try {
    const flags = { db: workspace.db, out: workspace.out, operations: false };
    const run = await exportOnce({ baseUrl: api.url, token: "t", flags, maxAttempts: 2 });
    const stored = await queryDb(workspace.db, "SELECT count(*)::INTEGER AS n FROM api_calls");
    const tokens = await queryDb(workspace.db, "SELECT count(*)::INTEGER AS n FROM api_tokens");
    return { ...run, calls: stored[0]?.n, tokens: tokens[0]?.n };
  } finally {
    await workspace.cleanup();
    await api.close();
  }
}

test("a 403 from GET /user/api-tokens is a warning; the run succeeds", async () => {
  const run = await exportAgainst(withTokens((_, res) => sendJson(res, 403, errorBody(403, "forbidden"))));
  expect(run.exitCode).toBe(0);
  expect(run.summary.spenders).toMatchObject({
    status: "skipped",
    skipped_listings: ["/user/api-tokens"],
    message: expect.stringMatching(/^api tokens skipped: the API answered 403 \(this token may not read it/),
  });
  expect(run.summary.warnings.join("\n")).toMatch(
    /api tokens skipped: the API answered 403 .*GET \/user\/api-tokens/,
  );
  expect(run.calls).toBe(2);
});

test("a listing that keeps failing makes the run partial (exit 4) and keeps the calls", async () => {
  const run = await exportAgainst(
    withTokens((_, res) => sendJson(res, 500, errorBody(500, "Internal Server Error"))),
  );
  expect(run.exitCode).toBe(4);
  expect(run.summary.status).toBe("partial");
  expect(run.summary.spenders).toMatchObject({
    status: "failed",
    message: expect.stringMatching(/^api tokens not all stored: GET \/user\/api-tokens/),
  });
  expect(run.calls).toBe(2);
});

test("a token record that does not validate goes to rejects; the others are stored", async () => {
  const good = {
    id: "0a1b2c3d-0000-4000-8000-0000000000aa",
    user_id: "0a1b2c3d-0000-4000-8000-000000000001",
    label: "laptop",
    token: "****ab12",
    is_valid: true,
    created_at: "2026-01-01T00:00:00Z",
    updated_at: "2026-01-01T00:00:00Z",
  };
  const run = await exportAgainst(
    withTokens((request, res) =>
      sendJson(
        res,
        200,
        request.query.has("page_token")
          ? { next_page: null, items: [] }
          : { next_page: "t1", items: [good, { ...good, id: "not-a-uuid" }] },
      ),
    ),
  );
  expect(run.exitCode).toBe(4);
  expect(run.summary.spenders).toMatchObject({ api_tokens: 1, rejected: 1 });
  expect(run.tokens).toBe(1);
});
