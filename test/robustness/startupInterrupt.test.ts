import type { ServerResponse } from "node:http";
import { expect, test } from "vitest";
import { runCli, testStop, whileRunning } from "../helpers/cli.js";
import { queryDb } from "../helpers/exportHarness.js";
import {
  errorBody,
  type HostileRequest,
  pageBody,
  resourcesPerTest,
  sendJson,
  validCall,
} from "../helpers/hostileApi.js";

/**
 * SIGINT or SIGTERM while the export starts up (config, the database opened, GET /org asked in org
 * scope), before any call is read: the run ends interrupted (130), with nothing half-written, and
 * the next run starts as if the stopped one had never been. In-process: the stop reaches the run as
 * the first signal after it took over would (testStop); test/e2e/signals.test.ts sends real
 * signals to a process, to the listener the CLI starts and to a run mid-scan.
 */
const resources = resourcesPerTest();

const ORG = "0a1b2c3d-0000-4000-8000-00000000a001";

/** A stand-in whose GET /org waits until `release`; `asked` resolves when that request arrives. */
async function heldOrgCheck() {
  let release: () => void = () => {};
  let asked: () => void = () => {};
  const orgAsked = new Promise<void>((resolve) => {
    asked = resolve;
  });
  const held: ServerResponse[] = [];
  let holding = true;
  const api = await resources.hostile((request: HostileRequest, res) => {
    if (request.path === "/org") {
      if (!holding) return sendJson(res, 200, { id: ORG });
      held.push(res);
      asked();
      return new Promise<void>((resolve) => {
        release = () => {
          holding = false;
          for (const waiting of held.splice(0)) if (!waiting.writableEnded) waiting.destroy();
          resolve();
        };
      });
    }
    if (request.path === "/org/api-calls") {
      const first = request.query.get("page_token") === null;
      return sendJson(res, 200, pageBody(first ? [validCall(1, { org_id: ORG })] : [], first ? "p1" : null));
    }
    sendJson(res, 404, errorBody(404, "not found"));
  });
  return { api, orgAsked, release: () => release() };
}

test.each([
  ["SIGINT", []],
  ["SIGTERM", []],
  ["SIGTERM", ["--json"]],
] as const)(
  "a stop (as %s) while GET /org is held %j: exit 130, nothing written, the next run exports",
  async (signal, extra) => {
    const { api, orgAsked, release } = await heldOrgCheck();
    const workspace = await resources.workspace();
    const args = [
      ...["export", "--db", workspace.db, "--out", workspace.out, "--scope", "org"],
      ...["--no-operations", "--max-attempts", "1", ...extra],
    ];
    const env = { ZOO_API_TOKEN: "hostile-token", ZOO_HOST: api.url };
    const stop = testStop();
    const run = runCli(args, { env, stop });
    try {
      await whileRunning(orgAsked, run, "it asked GET /org");
      stop.send(signal);
    } finally {
      release();
    }
    const stopped = await run;
    expect(stopped.code, stopped.stderr).toBe(130);
    expect(stopped.stderr).toMatch(new RegExp(`${signal}: stopping`));
    expect(stopped.stderr).toMatch(/interrupted during start-up/);
    if (extra.length > 0) {
      const line = JSON.parse(stopped.stdout) as { status: string; exit_code: number };
      expect(line).toMatchObject({ status: "interrupted", exit_code: 130 });
    }
    // No run was recorded as started, so none is left `running`; no call was read.
    expect(await queryDb(workspace.db, "SELECT count(*)::INTEGER AS n FROM runs")).toEqual([{ n: 0 }]);
    const next = await runCli(args, { env });
    expect(next.code, next.stderr).toBe(0);
    expect(await queryDb(workspace.db, "SELECT status FROM runs")).toEqual([{ status: "completed" }]);
    expect(await queryDb(workspace.db, "SELECT count(*)::INTEGER AS n FROM api_calls")).toEqual([{ n: 1 }]);
  },
);
