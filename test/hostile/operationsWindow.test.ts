import { expect, test } from "vitest";
import { describeRun } from "../../src/commands/export.js";
import { loadExportConfig } from "../../src/config/exportConfig.js";
import { exportOnce, tempWorkspace } from "../helpers/exportHarness.js";
import { pagedHandler, startHostileApi, validCall } from "../helpers/hostileApi.js";

test("the operations window is measured from the run's clock: a far-future call neither widens nor shifts it", async () => {
  const old = validCall(0);
  const recent = validCall(10 * 1440);
  const future = "2030-01-01T00:00:00Z";
  const farFuture = validCall(99_999, {
    created_at: future,
    started_at: future,
    completed_at: future,
    updated_at: future,
  });
  const api = await startHostileApi(pagedHandler([{ items: [old, recent, farFuture] }, { items: [] }]));
  const { db, out, cleanup } = await tempWorkspace();
  try {
    // The run's clock is 2026-10-12: the 5-day window starts 2026-10-07, whatever the newest call says.
    const runClock = new Date("2026-10-12T00:00:00Z");
    const { summary, exitCode } = await exportOnce({
      baseUrl: api.url,
      token: "t",
      flags: { db, out, operationsWindow: "5d" },
      now: () => runClock,
    });
    expect(exitCode, JSON.stringify(summary)).toBe(0);
    const asked = api.requests
      .filter((request) => request.path.startsWith("/async/operations/"))
      .map((request) => request.path.slice("/async/operations/".length));
    expect(asked.sort()).toEqual([String(recent.id), String(farFuture.id)].sort());
    expect(summary.operations).toMatchObject({
      window_start: "2026-10-07T00:00:00.000000Z",
      skipped_outside_window: 1,
    });
    // The printed lines say what was left out and how to fetch it (joined where they wrap).
    const text = describeRun(summary, loadExportConfig({ flags: { db, out }, env: {} }));
    expect(text.replace(/\n +/g, " ")).toMatch(
      /async operations of 1 call created before 2026-10-07T00:00:00.000000Z left out .*--operations all fetches them/,
    );
  } finally {
    await cleanup();
    await api.close();
  }
});
