import { describe, expect, test } from "vitest";
import { runCli, testStop, whileRunning } from "../helpers/cli.js";
import { exportOnce } from "../helpers/exportHarness.js";
import { holdDatabase } from "../helpers/heldDatabase.js";
import { errorBody, pagedHandler, resourcesPerTest, sendJson, validCall } from "../helpers/hostileApi.js";
import { expectJsonLogLines } from "../helpers/jsonLogLines.js";

/**
 * `--json` is for cron jobs and log collectors: whatever the outcome, stdout is exactly one line
 * holding one JSON object with the status and the exit code (JSON Lines), and `--log-format json`
 * makes every stderr line one JSON object too.
 */
const TOKEN = "t-jsonlines-0123456789";
const { hostile, workspace, onCleanup } = resourcesPerTest();

interface RunLineShape {
  status: string;
  exit_code: number;
  run_id?: string;
  records_new?: number;
  records_rejected?: number;
  error?: { code: string; message: string; hint?: string };
}

/** The one line of stdout, parsed; fails unless stdout is exactly one newline-terminated line. */
function onlyLine(stdout: string): RunLineShape {
  expect(stdout.endsWith("\n"), stdout).toBe(true);
  const lines = stdout.slice(0, -1).split("\n");
  expect(lines, stdout).toHaveLength(1);
  return JSON.parse(lines[0] ?? "") as RunLineShape;
}

function exportArgs(w: { db: string; out: string }, ...extra: string[]): string[] {
  return ["export", "--db", w.db, "--out", w.out, "--no-operations", "--json", ...extra];
}

describe("--json prints exactly one line of JSON on stdout", () => {
  test("a completed run (exit 0)", async () => {
    const api = await hostile(pagedHandler([{ items: [validCall(1), validCall(2)] }]));
    const w = await workspace();
    const result = await runCli(exportArgs(w), {
      env: { ZOO_API_TOKEN: TOKEN, ZOO_HOST: api.url },
    });
    expect(result.code, result.stderr).toBe(0);
    expect(onlyLine(result.stdout)).toMatchObject({ status: "completed", exit_code: 0, records_new: 2 });
  });

  test("a partial run with a rejected record (exit 4)", async () => {
    const api = await hostile(
      pagedHandler([{ items: [validCall(1), validCall(2, { created_at: "yesterday-ish" })] }]),
    );
    const w = await workspace();
    const result = await runCli(exportArgs(w), {
      env: { ZOO_API_TOKEN: TOKEN, ZOO_HOST: api.url },
    });
    expect(result.code, result.stderr).toBe(4);
    expect(onlyLine(result.stdout)).toMatchObject({
      status: "partial",
      exit_code: 4,
      records_new: 1,
      records_rejected: 1,
    });
  });

  test("an API failure after the run started (exit 3): the error, the counts, never the token", async () => {
    // The API quotes the request's credential back in its error message.
    const api = await hostile((_request, res) =>
      sendJson(res, 403, errorBody(403, `token ${TOKEN} may not`)),
    );
    const w = await workspace();
    const result = await runCli(exportArgs(w), {
      env: { ZOO_API_TOKEN: TOKEN, ZOO_HOST: api.url },
    });
    expect(result.code, result.stderr).toBe(3);
    const line = onlyLine(result.stdout);
    expect(line).toMatchObject({ status: "failed", exit_code: 3, records_new: 0 });
    expect(line.run_id).toMatch(/^\d{8}T\d{6}Z-[0-9a-f]{6}$/);
    expect(line.error?.code).toBe("api.forbidden");
    expect(line.error?.message.length).toBeGreaterThan(0);
    expect(result.stdout).not.toContain(TOKEN);
    expect(line.error?.message).toContain("[redacted]");
  });

  test("a config error before the run starts (exit 2)", async () => {
    const w = await workspace();
    const result = await runCli(exportArgs(w), { env: {} });
    expect(result.code, result.stderr).toBe(2);
    const line = onlyLine(result.stdout);
    expect(line).toMatchObject({ status: "failed", exit_code: 2 });
    expect(line.error?.code).toBe("config.missing_token");
    expect(result.stderr).toMatch(/code: config\.missing_token/);
  });

  test("a bad flag value, refused before the run starts (exit 2)", async () => {
    const w = await workspace();
    const result = await runCli(exportArgs(w, "--limit", "abc"), { env: {} });
    expect(result.code, result.stderr).toBe(2);
    const line = onlyLine(result.stdout);
    expect(line).toMatchObject({ status: "failed", exit_code: 2, error: { code: "config.invalid" } });
    expect(line.error?.message).toMatch(/--limit/);
  });

  test("a database held by another process (exit 6)", async () => {
    const api = await hostile(pagedHandler([{ items: [validCall(1)] }]));
    const w = await workspace();
    await exportOnce({ baseUrl: api.url, token: TOKEN, flags: { db: w.db, out: w.out, operations: false } });
    const holder = await holdDatabase(w.db);
    onCleanup(async () => {
      holder.kill("SIGKILL");
    });
    const result = await runCli(exportArgs(w), {
      env: { ZOO_API_TOKEN: TOKEN, ZOO_HOST: api.url },
    });
    expect(result.code, result.stderr).toBe(6);
    const line = onlyLine(result.stdout);
    expect(line).toMatchObject({ status: "failed", exit_code: 6 });
    expect(line.error?.code).toBe("warehouse.locked");
  });
});

describe("--json on an interrupted run (exit 130)", () => {
  /** A stand-in that never answers the list request; `asked` resolves when it has it. */
  async function silentApi() {
    let onAsked: () => void = () => {};
    const asked = new Promise<void>((resolve) => {
      onAsked = resolve;
    });
    const api = await hostile(() => onAsked());
    return { api, asked };
  }

  test("one signal: the run stops and prints its one line", async () => {
    const { api, asked } = await silentApi();
    const w = await workspace();
    // Sent as the process's first SIGINT would be; a second one, which only a process can take,
    // is in test/e2e/processOutcomes.test.ts.
    const stop = testStop();
    const run = runCli(exportArgs(w), { env: { ZOO_API_TOKEN: TOKEN, ZOO_HOST: api.url }, stop });
    await whileRunning(asked, run, "the list request");
    stop.send("SIGINT");
    const result = await run;
    expect(result.code, result.stderr).toBe(130);
    expect(onlyLine(result.stdout)).toMatchObject({ status: "interrupted", exit_code: 130 });
  });
});

describe("--log-format json writes only JSON objects on stderr", () => {
  test("a run with rejects, --debug request lines among its log lines", async () => {
    const api = await hostile(
      pagedHandler([{ items: [validCall(1), validCall(2, { created_at: "yesterday-ish" })] }]),
    );
    const w = await workspace();
    const result = await runCli(exportArgs(w, "--log-format", "json", "--debug"), {
      env: { ZOO_API_TOKEN: TOKEN, ZOO_HOST: api.url },
    });
    expect(result.code, result.stderr).toBe(4);
    const entries = expectJsonLogLines(result.stderr);
    expect(entries.some((entry) => entry.level === "debug")).toBe(true);
    expect(onlyLine(result.stdout).status).toBe("partial");
  });

  test("commander's error and usage for a bad flag value are JSON objects too", async () => {
    const w = await workspace();
    const result = await runCli(exportArgs(w, "--log-format", "json", "--limit", "abc"), {
      env: {},
    });
    expect(result.code).toBe(2);
    const entries = expectJsonLogLines(result.stderr);
    expect(entries[0]?.message).toMatch(/--limit <n>' argument 'abc' is invalid/);
  });

  test("the error of a failed run is one JSON object too", async () => {
    const w = await workspace();
    const result = await runCli(exportArgs(w, "--log-format", "json"), { env: {} });
    expect(result.code).toBe(2);
    const entries = expectJsonLogLines(result.stderr);
    expect(entries.at(-1)).toMatchObject({
      level: "error",
      fields: { code: "config.missing_token", exit_code: 2 },
    });
  });
});
