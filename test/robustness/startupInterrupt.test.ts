import { type ChildProcess, spawn } from "node:child_process";
import type { ServerResponse } from "node:http";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { expect, test } from "vitest";
import { outputSeen, REPO_ROOT, spawnCli, whileRunning } from "../helpers/cli.js";
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
 * scope), before any call is read: the process ends interrupted (130), with nothing half-written,
 * and the next run starts as if the stopped one had never been.
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
  "%s while GET /org is held %j: exit 130, nothing written, the next run exports",
  async (signal, extra) => {
    const { api, orgAsked, release } = await heldOrgCheck();
    const workspace = await resources.workspace();
    const args = [
      ...["export", "--db", workspace.db, "--out", workspace.out, "--scope", "org"],
      ...["--no-operations", "--max-attempts", "1", ...extra],
    ];
    const env = { ZOO_API_TOKEN: "hostile-token", ZOO_HOST: api.url };
    let child: ChildProcess | undefined;
    const run = spawnCli(args, {
      env,
      timeoutMs: 60_000,
      onSpawn: (spawned) => {
        child = spawned;
      },
    });
    try {
      await whileRunning(orgAsked, run, "it asked GET /org");
      const stopping = outputSeen(child?.stderr ?? null, /stopping/);
      child?.kill(signal);
      await whileRunning(stopping, run, `it took ${signal}`);
    } finally {
      release();
    }
    const stopped = await run;
    expect(stopped.signal).toBeNull();
    expect(stopped.code, stopped.stderr).toBe(130);
    expect(stopped.stderr).toMatch(/interrupted during start-up/);
    if (extra.length > 0) {
      const line = JSON.parse(stopped.stdout) as { status: string; exit_code: number };
      expect(line).toMatchObject({ status: "interrupted", exit_code: 130 });
    }
    // No run was recorded as started, so none is left `running`; no call was read.
    expect(await queryDb(workspace.db, "SELECT count(*)::INTEGER AS n FROM runs")).toEqual([{ n: 0 }]);
    const next = await spawnCli(args, { env, timeoutMs: 60_000 });
    expect(next.code, next.stderr).toBe(0);
    expect(await queryDb(workspace.db, "SELECT status FROM runs")).toEqual([{ status: "completed" }]);
    expect(await queryDb(workspace.db, "SELECT count(*)::INTEGER AS n FROM api_calls")).toEqual([{ n: 1 }]);
  },
);

/**
 * The listener the CLI starts before it loads the program, run in a process of its own: a signal
 * before the run takes over ends the process with 130 at once; after, the first asks the run to
 * stop and a second ends the process.
 */
async function listenerProcess(takeOver: boolean, signals: NodeJS.Signals[]) {
  const module = path.join(REPO_ROOT, "dist/cli/stopSignals.js");
  const script = [
    `const { listenForStop } = await import(${JSON.stringify(pathToFileURL(module).href)});`,
    "const stop = listenForStop((name) => process.stderr.write('before the run: ' + name + '\\n'));",
    takeOver
      ? "stop.takeOver({ first: (name) => process.stdout.write('stopping: ' + name + ' ' + stop.signal.aborted + '\\n'), beforeForcedExit: () => process.stderr.write('forced\\n') });"
      : "",
    "process.stdout.write('listening\\n');",
    "setInterval(() => {}, 1000);",
  ].join("\n");
  const child = spawn(process.execPath, ["--input-type=module", "-e", script], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (chunk) => {
    stderr += chunk;
  });
  const ended = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  await outputSeen(child.stdout, /listening/);
  for (const [k, signal] of signals.entries()) {
    const seen = k < signals.length - 1 ? outputSeen(child.stdout, /stopping: \w+ true/) : undefined;
    child.kill(signal);
    await seen;
  }
  return { code: await ended, stderr };
}

test.each(["SIGINT", "SIGTERM"] as const)(
  "%s before the run takes over: exit 130 at once, said on stderr",
  async (signal) => {
    const result = await listenerProcess(false, [signal]);
    expect(result).toEqual({ code: 130, stderr: `before the run: ${signal}\n` });
  },
);

test("after the run took over: the first signal aborts the run's signal, a second ends the process (130)", async () => {
  const result = await listenerProcess(true, ["SIGTERM", "SIGINT"]);
  expect(result).toEqual({ code: 130, stderr: "forced\n" });
});
