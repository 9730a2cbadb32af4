import { expect, test } from "vitest";
import { openWarehouse } from "../../src/load/database.js";
import { exportOnce, queryDb, writeDb } from "../helpers/exportHarness.js";
import {
  errorBody,
  type HostileHandler,
  pageBody,
  resourcesPerTest,
  sendJson,
  validCall,
} from "../helpers/hostileApi.js";

/**
 * Whose calls a database holds. In org scope, every call the org's own listing returns is the
 * org's, whatever its org_id says: stored, with a warning and a count, not a refusal every night.
 * A refusal of another user, org or scope names what the database holds only when it holds data.
 */
const resources = resourcesPerTest();

const ORG = "0a1b2c3d-0000-4000-8000-00000000a001";
const OTHER_ORG = "0a1b2c3d-0000-4000-8000-00000000b002";
const OTHER_USER = "0a1b2c3d-0000-4000-8000-0000000000f2";

/** GET /org names `org`; `calls` is the one page of the calls listing (user or org); 404 elsewhere. */
function api(org: string, calls: () => readonly unknown[]): HostileHandler {
  return (request, res) => {
    if (request.path === "/org") return sendJson(res, 200, { id: org, name: "hostile org" });
    if (request.path === "/org/api-calls" || request.path === "/user/api-calls") {
      const first = request.query.get("page_token") === null;
      return sendJson(res, 200, pageBody(first ? calls() : [], first ? "p1" : null));
    }
    sendJson(res, 404, errorBody(404, "not found"));
  };
}

async function exporter(handler: HostileHandler, scope: "user" | "org") {
  const stand = await resources.hostile(handler);
  const workspace = await resources.workspace();
  return {
    db: workspace.db,
    run: (url = stand.url) =>
      exportOnce({
        baseUrl: url,
        token: "hostile-token",
        flags: { db: workspace.db, out: workspace.out, operations: false, scope },
        maxAttempts: 2,
      }),
  };
}

test("a call of another org_id in the org's listing is stored with a warning and a count, every night", async () => {
  const calls = [
    validCall(1, { org_id: ORG }),
    validCall(2, { org_id: OTHER_ORG }),
    validCall(3, { org_id: OTHER_ORG.toUpperCase() }),
    validCall(4, { org_id: null }),
  ];
  const { db, run } = await exporter(
    api(ORG, () => calls),
    "org",
  );
  const first = await run();
  expect([first.summary.status, first.exitCode]).toEqual(["completed", 0]);
  expect(first.summary.foreign_org_calls).toBe(2);
  const warnings = first.summary.warnings.filter((line) => line.includes("names org"));
  expect(warnings).toHaveLength(1);
  expect(warnings[0]).toMatch(
    new RegExp(
      `^call \\S+ listed by GET /org/api-calls names org ${OTHER_ORG}, not this org ${ORG}; stored all the same`,
    ),
  );
  expect(await queryDb(db, "SELECT org_id::VARCHAR AS org FROM api_calls ORDER BY created_at")).toEqual([
    { org: ORG },
    { org: OTHER_ORG },
    { org: OTHER_ORG },
    { org: null },
  ]);
  // The next night: no refusal, nothing lost, the same calls counted again as the lookback reads them.
  calls.push(validCall(5, { org_id: ORG }));
  const second = await run();
  expect([second.summary.status, second.exitCode]).toEqual(["completed", 0]);
  expect(second.summary.foreign_org_calls).toBe(2);
  expect(await queryDb(db, "SELECT count(*)::INTEGER AS n FROM api_calls")).toEqual([{ n: 5 }]);
  expect(await queryDb(db, "SELECT status FROM runs ORDER BY started_at")).toEqual([
    { status: "completed" },
    { status: "completed" },
  ]);
});

test("a run without calls of another org has no foreign_org_calls key", async () => {
  const { run } = await exporter(
    api(ORG, () => [validCall(1, { org_id: ORG })]),
    "org",
  );
  const result = await run();
  expect(result.exitCode).toBe(0);
  expect("foreign_org_calls" in result.summary).toBe(false);
});

test("another org on a database claimed by a run that stored nothing: refused, without saying it holds data", async () => {
  const { db, run } = await exporter(
    api(OTHER_ORG, () => [validCall(1, { org_id: OTHER_ORG })]),
    "org",
  );
  const claimed = await openWarehouse(db);
  claimed.close();
  await writeDb(db, `UPDATE internal.warehouse_identity SET scope = 'org', owner_id = '${ORG}'`);
  const refusal = run();
  await expect(refusal).rejects.toMatchObject({
    code: "warehouse.other_owner",
    exitCode: 2,
    message: expect.stringMatching(
      new RegExp(
        `was set up for org scope \\(org ${ORG}\\) by an earlier run and holds no data yet, but this run exports org scope \\(org ${OTHER_ORG}\\)`,
      ),
    ),
  });
  await expect(refusal).rejects.not.toMatchObject({ message: expect.stringContaining("holds the data of") });
  expect(await queryDb(db, "SELECT count(*)::INTEGER AS n FROM api_calls")).toEqual([{ n: 0 }]);
});

test("org scope on a database a user-scope run claimed and left empty: refused as set up for user scope, holding nothing", async () => {
  const { db, run } = await exporter(
    api(ORG, () => [validCall(1, { org_id: ORG })]),
    "org",
  );
  const claimed = await openWarehouse(db);
  claimed.close();
  await writeDb(db, "UPDATE internal.warehouse_identity SET scope = 'user', owner_id = NULL");
  await expect(run()).rejects.toMatchObject({
    code: "warehouse.other_scope",
    exitCode: 2,
    message: expect.stringMatching(
      new RegExp(
        `was set up for user scope by an earlier run and holds no data yet, but this run exports org scope \\(org ${ORG}\\)$`,
      ),
    ),
  });
});

test("another org on a database holding an org's calls: refused, naming the data it holds", async () => {
  let org = ORG;
  const { db, run } = await exporter(
    (request, res) => api(org, () => [validCall(1, { org_id: org })])(request, res),
    "org",
  );
  expect((await run()).exitCode).toBe(0);
  org = OTHER_ORG;
  await expect(run()).rejects.toMatchObject({
    code: "warehouse.other_owner",
    exitCode: 2,
    message: expect.stringContaining(
      `holds the data of org scope (org ${ORG}), but this run exports org scope (org ${OTHER_ORG})`,
    ),
  });
  // Nothing committed is lost, and the org's own token carries on.
  org = ORG;
  expect((await run()).exitCode).toBe(0);
  expect(await queryDb(db, "SELECT count(*)::INTEGER AS n FROM api_calls")).toEqual([{ n: 1 }]);
});

test("a new database shown two users' calls: refused without claiming it holds either's; the next run stores", async () => {
  let calls = [validCall(1), validCall(2, { user_id: OTHER_USER })];
  const { db, run } = await exporter(
    api(ORG, () => calls),
    "user",
  );
  const refusal = run();
  await expect(refusal).rejects.toMatchObject({
    code: "warehouse.other_user",
    exitCode: 2,
    message: expect.stringMatching(
      /^This token lists calls of user \S+ and of user 0a1b2c3d-0000-4000-8000-0000000000f2 \(call \S+\), but the database \S+ holds one user's calls$/,
    ),
  });
  await expect(refusal).rejects.not.toMatchObject({ message: expect.stringContaining("holds the calls of") });
  calls = [validCall(1)];
  const next = await run();
  expect(next.exitCode).toBe(0);
  calls = [validCall(1), validCall(3, { user_id: OTHER_USER })];
  await expect(run()).rejects.toMatchObject({
    code: "warehouse.other_user",
    exitCode: 2,
    message: expect.stringMatching(
      /^The database \S+ holds the calls of user \S+, but this token lists calls of user 0a1b2c3d-0000-4000-8000-0000000000f2/,
    ),
  });
  expect(await queryDb(db, "SELECT count(*)::INTEGER AS n FROM api_calls")).toEqual([{ n: 1 }]);
});
