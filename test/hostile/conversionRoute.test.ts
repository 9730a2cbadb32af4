import { expect, test } from "vitest";
import { exportOnce, tempWorkspace } from "../helpers/exportHarness.js";
import { pagedHandler, startHostileApi, validCall } from "../helpers/hostileApi.js";

test("a call to the current POST /file/conversion route has its operation fetched; a 201 of /file/execute does not", async () => {
  const conversion = validCall(1, { endpoint: "/file/conversion", status_code: 201 });
  const legacy = validCall(2, { endpoint: "/file/conversion/step/obj", status_code: 201 });
  const execution = validCall(3, { endpoint: "/file/execute/python", status_code: 201 });
  const api = await startHostileApi(
    pagedHandler([{ items: [conversion, legacy, execution] }, { items: [] }]),
  );
  const { db, out, cleanup } = await tempWorkspace();
  try {
    const { summary, exitCode } = await exportOnce({ baseUrl: api.url, token: "t", flags: { db, out } });
    expect(exitCode, JSON.stringify(summary)).toBe(0);
    const asked = api.requests
      .filter((request) => request.path.startsWith("/async/operations/"))
      .map((request) => request.path.slice("/async/operations/".length));
    expect(asked.sort()).toEqual([String(conversion.id), String(legacy.id)].sort());
  } finally {
    await cleanup();
    await api.close();
  }
});
