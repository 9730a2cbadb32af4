import { expect, test } from "vitest";
import { exportOnce, queryDb, tempWorkspace } from "../helpers/exportHarness.js";
import { pagedHandler, startHostileApi, validCall } from "../helpers/hostileApi.js";

test("the hostile stand-in, behaving, serves an export that completes with every call", async () => {
  const api = await startHostileApi(
    pagedHandler([{ items: [validCall(1), validCall(2)] }, { items: [validCall(3)] }, { items: [] }]),
  );
  const { db, out, cleanup } = await tempWorkspace();
  try {
    const { summary, exitCode } = await exportOnce({ baseUrl: api.url, token: "t", flags: { db, out } });
    expect(exitCode, JSON.stringify(summary)).toBe(0);
    expect(await queryDb(db, "SELECT count(*)::INTEGER AS n FROM api_calls")).toEqual([{ n: 3 }]);
  } finally {
    await cleanup();
    await api.close();
  }
});
