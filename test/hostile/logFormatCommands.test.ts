import { existsSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { runCli } from "../helpers/cli.js";
import { exportOnce } from "../helpers/exportHarness.js";
import {
  errorBody,
  pagedHandler,
  resourcesPerTest,
  sendJson,
  validCall,
  validOperation,
} from "../helpers/hostileApi.js";
import { expectJsonLogLines } from "../helpers/jsonLogLines.js";

/**
 * `--log-format json` on report and operation get, as on export: their log lines and their error
 * are one JSON object a line on stderr, so a log collector reads every command's stderr alike.
 */
const TOKEN = "t-log-format-commands-0123";
const { hostile, workspace } = resourcesPerTest();

describe("report --log-format json", () => {
  test("a missing database: the error is one JSON object, exit 2", async () => {
    const w = await workspace();
    const result = await runCli(["report", "--db", w.db, "--log-format", "json"]);
    expect(result.code, result.stderr).toBe(2);
    const entries = expectJsonLogLines(result.stderr);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ level: "error", fields: { exit_code: 2 } });
    expect(entries[0]?.message).toContain("No zoo-usage database");
    expect(result.stdout).toBe("");
  });

  test("its log line (the HTML page written, with --json) is one JSON object", async () => {
    const api = await hostile(pagedHandler([{ items: [validCall(1), validCall(2)] }]));
    const w = await workspace();
    await exportOnce({ baseUrl: api.url, token: TOKEN, flags: { db: w.db, out: w.out, operations: false } });
    const html = path.join(path.dirname(w.db), "report.html");
    const result = await runCli([
      "report",
      "--db",
      w.db,
      "--json",
      "--html",
      html,
      "--log-format",
      "json",
      "--debug",
    ]);
    expect(result.code, result.stderr).toBe(0);
    const entries = expectJsonLogLines(result.stderr);
    expect(entries.some((entry) => entry.level === "info" && entry.message.includes(html))).toBe(true);
    expect(existsSync(html)).toBe(true);
    expect(JSON.parse(result.stdout)).toBeTypeOf("object");
  });
});

describe("operation get --log-format json", () => {
  const operation = validOperation(1);
  const id = String(operation.id);

  test("a missing token: the error is one JSON object, exit 2", async () => {
    const result = await runCli(["operation", "get", id, "--log-format", "json"], {
      env: {},
    });
    expect(result.code, result.stderr).toBe(2);
    const entries = expectJsonLogLines(result.stderr);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      level: "error",
      fields: { code: "config.missing_token", exit_code: 2 },
    });
    expect(result.stdout).toBe("");
  });

  test("a retried request, --debug request lines and a log line: all JSON objects", async () => {
    const api = await hostile((request, res) => {
      if (request.path !== `/async/operations/${id}`) sendJson(res, 404, errorBody(404, "not found"));
      // The first answer is a 503, retried.
      else if (request.n === 1) sendJson(res, 503, errorBody(503, "busy"));
      else sendJson(res, 200, operation);
    });
    const w = await workspace();
    const outputs = path.join(path.dirname(w.db), "outputs");
    const result = await runCli(
      ["operation", "get", id, "--save-outputs", outputs, "--log-format", "json", "--debug"],
      { env: { ZOO_API_TOKEN: TOKEN, ZOO_HOST: api.url } },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(api.requests).toHaveLength(2);
    const entries = expectJsonLogLines(result.stderr);
    expect(entries.some((entry) => entry.level === "debug")).toBe(true);
    expect(entries.some((entry) => entry.message === "the operation has no outputs to save")).toBe(true);
    expect(result.stderr).not.toContain(TOKEN);
    expect(result.stdout).toContain(id);
  });

  test("an API error: one JSON object, exit 3", async () => {
    const api = await hostile((_request, res) => sendJson(res, 403, errorBody(403, "forbidden")));
    const result = await runCli(["operation", "get", id, "--log-format", "json"], {
      env: { ZOO_API_TOKEN: TOKEN, ZOO_HOST: api.url },
    });
    expect(result.code, result.stderr).toBe(3);
    const entries = expectJsonLogLines(result.stderr);
    expect(entries.at(-1)).toMatchObject({ level: "error", fields: { exit_code: 3 } });
  });
});
