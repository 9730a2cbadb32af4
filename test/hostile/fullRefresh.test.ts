import { expect, test } from "vitest";
import { exportOnce, queryDb } from "../helpers/exportHarness.js";
import {
  errorBody,
  type HostileHandler,
  pagedHandler,
  resourcesPerTest,
  sendJson,
  validCall,
} from "../helpers/hostileApi.js";

/**
 * --full-refresh reads the whole history from the first page, also after an interrupted run whose
 * resume position is stored (docs/export.md: "rescan the whole history"); without it, the next run goes on
 * from that position.
 */
const { hostile, workspace } = resourcesPerTest();

/** Four pages of three calls (minutes 1-12), then Dropshot's empty last page. */
const PAGES = [0, 1, 2, 3].map((page) => ({
  items: [1, 2, 3].map((i) => validCall(3 * page + i, { method: "GET", endpoint: "/user" })),
}));
PAGES.push({ items: [] });

/** The API answers 503 for the third page while `broken.on`, and serves every page otherwise. */
function flakyThirdPage(broken: { on: boolean }): HostileHandler {
  const pages = pagedHandler(PAGES);
  return (request, res) => {
    if (broken.on && request.path === "/user/api-calls" && request.query.get("page_token") === "p2") {
      sendJson(res, 503, errorBody(503, "unavailable"));
      return;
    }
    return pages(request, res);
  };
}

/** An export run whose scan stops at the third page, leaving a resume position behind. */
async function interruptedRun() {
  const broken = { on: true };
  const api = await hostile(flakyThirdPage(broken));
  const { db, out } = await workspace();
  const first = await exportOnce({ baseUrl: api.url, token: "t", maxAttempts: 1, flags: { db, out } });
  expect(first.exitCode).toBe(4);
  const [state] = await queryDb(
    db,
    "SELECT resume_token IS NOT NULL AS resumable FROM internal.export_state",
  );
  expect(state?.resumable).toBe(true);
  expect((await queryDb(db, "SELECT count(*)::INTEGER AS n FROM api_calls"))[0]?.n).toBe(6);
  broken.on = false;
  const listedBefore = api.requests.length;
  /** The page tokens of the list requests after the interrupted run (null: the first page). */
  const listedAfter = () =>
    api.requests
      .slice(listedBefore)
      .filter((request) => request.path === "/user/api-calls")
      .map((request) => request.query.get("page_token"));
  return { api, db, out, listedAfter };
}

test("--full-refresh after an interrupted run reads every page from the first", async () => {
  const { api, db, out, listedAfter } = await interruptedRun();
  const { summary, exitCode } = await exportOnce({
    baseUrl: api.url,
    token: "t",
    flags: { db, out, fullRefresh: true },
  });
  expect(exitCode).toBe(0);
  expect(summary.scan_mode).toBe("full");
  expect(listedAfter()).toEqual([null, "p1", "p2", "p3", "p4"]);
  const [stored] = await queryDb(
    db,
    "SELECT count(*)::INTEGER AS n, count(DISTINCT id)::INTEGER AS ids FROM api_calls",
  );
  expect(stored).toEqual({ n: 12, ids: 12 });
});

test("without --full-refresh the next run resumes from the interrupted page", async () => {
  const { api, db, out, listedAfter } = await interruptedRun();
  const { summary, exitCode } = await exportOnce({ baseUrl: api.url, token: "t", flags: { db, out } });
  expect(exitCode).toBe(0);
  expect(summary.scan_mode).toBe("resume");
  expect(listedAfter()).toEqual(["p2", "p3", "p4"]);
});
