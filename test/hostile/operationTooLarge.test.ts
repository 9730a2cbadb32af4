import { expect, test } from "vitest";
import { runCli } from "../helpers/cli.js";
import { queryDb, tempWorkspace } from "../helpers/exportHarness.js";
import { errorBody, pageBody, sendJson, startHostileApi, validCall } from "../helpers/hostileApi.js";

const TOKEN = "hostile-token-operation-too-large";

test("an operation body above --max-response-mb is a reject, not a run that fails every night", async () => {
  const call = validCall(1);
  const hugeBody = JSON.stringify({ id: call.id, type: "file_volume", outputs: "x".repeat(1_200_000) });
  const api = await startHostileApi((request, res) => {
    if (request.path === "/user/api-calls") {
      const first = request.query.get("page_token") === null;
      sendJson(res, 200, pageBody(first ? [call] : [], first ? "p1" : null));
    } else if (request.path === `/async/operations/${String(call.id)}`) {
      sendJson(res, 200, hugeBody);
    } else {
      sendJson(res, 404, errorBody(404, "not found"));
    }
  });
  const { db, out, cleanup } = await tempWorkspace();
  try {
    const args = [
      "export",
      "--db",
      db,
      "--out",
      out,
      "--max-response-mb",
      "1",
      "--json",
      "--operations",
      "all",
    ];
    const env = { ZOO_API_TOKEN: TOKEN, ZOO_HOST: api.url };
    const first = await runCli(args, { env });
    expect(first.code, first.stderr).toBe(4);
    expect(await queryDb(db, "SELECT count(*)::INTEGER AS n FROM api_calls")).toEqual([{ n: 1 }]);
    const rejects = await queryDb(db, "SELECT record_id::VARCHAR AS id, reason FROM rejects");
    expect(rejects).toEqual([
      { id: call.id, reason: expect.stringMatching(/async operation: .*larger than the limit of 1 MiB/) },
    ]);
    const operationRequests = () => api.requests.filter((r) => r.path.startsWith("/async/")).length;
    expect(operationRequests()).toBe(1);
    // The next run does not ask for it again, and completes.
    const second = await runCli(args, { env });
    expect(second.code, second.stderr).toBe(0);
    expect(operationRequests()).toBe(1);
  } finally {
    await cleanup();
    await api.close();
  }
});
