import { createServer, type Socket } from "node:net";
import { describe, expect, test } from "vitest";
import { describeRun } from "../../src/commands/export.js";
import { loadExportConfig } from "../../src/config/exportConfig.js";
import { newRunSummary, type RunSummary } from "../../src/sources/runSummary.js";
import { runCli } from "../helpers/cli.js";
import {
  errorBody,
  HOSTILE_USER_ID,
  pageBody,
  resourcesPerTest,
  sendJson,
  validCall,
} from "../helpers/hostileApi.js";

/**
 * Exit codes say what happened and messages never mislead: a wrong or silent host is an API error
 * (3), not a partial run with a spend line; a bad token or a bad ZOO_HOST is a config error (2) that
 * never echoes the secret; a base URL's path prefix is kept; a huge body is refused with a clear
 * error; and escape sequences from API data never reach the terminal raw.
 */
const TOKEN = "t-0123456789abcdef";
const ESC = "\u001b";
const C1_CSI = "\u009b";
const { hostile, workspace, onCleanup } = resourcesPerTest();

function exportArgs(w: { db: string; out: string }, ...extra: string[]): string[] {
  return ["export", "--db", w.db, "--out", w.out, ...extra];
}

/** A spec-valid failed file_volume operation with the given error text. */
function failedOperation(id: string, error: string): Record<string, unknown> {
  const at = "2026-10-01T00:01:00Z";
  return {
    id,
    user_id: HOSTILE_USER_ID,
    type: "file_volume",
    status: "failed",
    created_at: at,
    updated_at: at,
    started_at: at,
    completed_at: at,
    error,
    output_unit: "m3",
    src_format: "step",
    volume: null,
  };
}

describe("a host that is wrong or silent is exit 3, without a spend line", () => {
  test("a host name that does not resolve", async () => {
    const w = await workspace();
    const result = await runCli(exportArgs(w, "--request-timeout", "5", "--max-attempts", "2"), {
      env: { ZOO_API_TOKEN: TOKEN, ZOO_HOST: "https://nonexistent.invalid" },
    });
    expect(result.code, result.stderr).toBe(3);
    expect(result.stderr).toMatch(/No response from https:\/\/nonexistent\.invalid/);
    expect(result.stderr).toMatch(/code: api\.unreachable/);
    expect(result.stderr).toMatch(/ZOO_HOST/);
    expect(result.stdout).not.toMatch(/spend|USD/);
  });

  test("a host that accepts connections and never answers", async () => {
    const sockets: Socket[] = [];
    let requestsSent = 0;
    const server = createServer((socket) => {
      sockets.push(socket);
      socket.once("data", () => {
        requestsSent += 1;
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    onCleanup(async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    });
    const { port } = server.address() as { port: number };
    const w = await workspace();
    const result = await runCli(exportArgs(w, "--request-timeout", "0.3", "--max-attempts", "2"), {
      env: { ZOO_API_TOKEN: TOKEN, ZOO_HOST: `http://127.0.0.1:${port}` },
    });
    expect(result.code, result.stderr).toBe(3);
    expect(result.stderr).toMatch(/No response from http:\/\/127\.0\.0\.1:\d+ in 2 attempts/);
    expect(result.stderr).toMatch(/timed out/);
    expect(result.stdout).not.toMatch(/spend|USD/);
    expect(requestsSent).toBe(2);
  });

  test("once the host has answered, a later network failure is a resumable partial run (4)", async () => {
    const api = await hostile((request, res) => {
      if (request.query.get("page_token") === null) sendJson(res, 200, pageBody([validCall(1)], "p1"));
      else res.destroy();
    });
    const w = await workspace();
    const result = await runCli(exportArgs(w, "--max-attempts", "2", "--no-operations"), {
      env: { ZOO_API_TOKEN: TOKEN, ZOO_HOST: api.url },
    });
    expect(result.code, result.stderr).toBe(4);
    expect(result.stdout).toMatch(/export partial/);
    expect(result.stdout).toMatch(/spend: 0\.020000 USD over 1 call,/);
  });
});

describe("configuration errors are exit 2 and never echo a secret", () => {
  test.each([
    ["a line break", "tok-abc\ndef-123"],
    ["a non-latin1 character", "tok-abc€def-123"],
    ["a space", "tok-abc def-123"],
  ])("a token with %s", async (_, token) => {
    const api = await hostile((_, res) => sendJson(res, 200, pageBody([], null)));
    const w = await workspace();
    const result = await runCli(exportArgs(w), {
      env: { ZOO_API_TOKEN: token, ZOO_HOST: api.url },
    });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toMatch(/ZOO_API_TOKEN holds .* which an HTTP header cannot carry/);
    expect(result.stderr).not.toContain("abc");
    expect(result.stderr).not.toContain("def-123");
    expect(api.requests).toHaveLength(0);
  });

  test.each([
    ["an unparsable URL", "https://admin:s3cr3t-pw@bad host.example"],
    ["an unparsable URL whose password has a slash", "https://admin:s3/cr3t-pw@bad host.example"],
    ["a valid URL", "https://admin:s3cr3t-pw@api.example"],
    ["a query", "https://api.example/?key=s3cr3t-pw"],
  ])("a ZOO_HOST with credentials in %s", async (_, host) => {
    const w = await workspace();
    const result = await runCli(exportArgs(w), {
      env: { ZOO_API_TOKEN: TOKEN, ZOO_HOST: host },
    });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toMatch(/ZOO_HOST/);
    expect(result.stderr).not.toMatch(/s3\/?cr3t-pw/);
    expect(result.stdout).not.toMatch(/s3\/?cr3t-pw/);
  });
});

test("a base URL's path prefix is kept: requests go to /zoo/user/api-calls, /zoo/user/payment/balance and /zoo/async/operations", async () => {
  const api = await hostile((request, res) => {
    if (request.path === "/zoo/user/api-calls") sendJson(res, 200, pageBody([validCall(1)], null));
    else if (request.path.startsWith("/zoo/async/operations/"))
      sendJson(res, 200, failedOperation(String(validCall(1).id), "no volume"));
    else sendJson(res, 404, errorBody(404, "not found"));
  });
  const w = await workspace();
  const result = await runCli(exportArgs(w, "--json", "--operations", "all"), {
    env: { ZOO_API_TOKEN: TOKEN, ZOO_HOST: `${api.url}/zoo/` },
  });
  expect(result.code, result.stderr).toBe(0);
  expect(api.requests.map((r) => r.path)).toEqual([
    "/zoo/user/api-calls",
    "/zoo/user/payment/invoices",
    "/zoo/user/payment/balance",
    `/zoo/async/operations/${String(validCall(1).id)}`,
  ]);
});

describe("a response body above --max-response-mb is refused with a clear error", () => {
  test.each([
    ["declared by content-length", true],
    ["streamed without a length", false],
  ])("%s", async (_, declared) => {
    const calls = Array.from({ length: 3000 }, (_, i) => validCall(i + 1));
    const body = pageBody(calls, null);
    expect(body.length).toBeGreaterThan(1024 * 1024);
    const api = await hostile((_, res) => {
      res.writeHead(200, {
        "content-type": "application/json",
        "x-request-id": "req-0123456789",
        ...(declared ? { "content-length": Buffer.byteLength(body) } : {}),
      });
      // In pieces, as a large body arrives.
      for (let i = 0; i < body.length; i += 64 * 1024) res.write(body.slice(i, i + 64 * 1024));
      res.end();
    });
    const w = await workspace();
    const result = await runCli(exportArgs(w, "--max-response-mb", "1"), {
      env: { ZOO_API_TOKEN: TOKEN, ZOO_HOST: api.url },
    });
    expect(result.code, result.stderr).toBe(3);
    expect(result.stderr).toMatch(
      /GET \/user\/api-calls\?limit=\d+&sort_by=created_at_ascending returned a body larger than the limit of 1 MiB/,
    );
    expect(result.stderr).toMatch(/request id req-0123456789/);
    expect(result.stderr).toMatch(/--max-response-mb/);
    expect(result.stderr).toMatch(/code: api\.response_too_large/);
    expect(result.stderr).not.toContain(TOKEN);
    // Not retried: the body would not get smaller.
    expect(api.requests).toHaveLength(1);
  });
});

describe("escape sequences from API data never reach the terminal raw", () => {
  const hostileText = `boom ${ESC}[2J${ESC}]0;pwned\u0007 ${C1_CSI}31m red`;

  function expectNeutralised(text: string): void {
    expect(text).not.toContain(ESC);
    expect(text).not.toContain(C1_CSI);
    expect(text).not.toContain("\u0007");
  }

  test("in an API error message", async () => {
    const api = await hostile((_, res) => sendJson(res, 401, errorBody(401, hostileText)));
    const w = await workspace();
    const result = await runCli(exportArgs(w), {
      env: { ZOO_API_TOKEN: TOKEN, ZOO_HOST: api.url },
    });
    expect(result.code, result.stderr).toBe(3);
    expect(result.stderr).toMatch(/failed with HTTP 401: boom \\x1b\[2J\\x1b\]0;pwned\\x07/);
    expectNeutralised(result.stderr);
  });

  test("in retry warnings and the export summary's 'stopped by'", async () => {
    const api = await hostile((request, res) => {
      if (request.query.get("page_token") === null) sendJson(res, 200, pageBody([validCall(1)], "p1"));
      else sendJson(res, 503, errorBody(503, hostileText));
    });
    const w = await workspace();
    const result = await runCli(exportArgs(w, "--max-attempts", "2", "--no-operations"), {
      env: { ZOO_API_TOKEN: TOKEN, ZOO_HOST: api.url },
    });
    expect(result.code, result.stderr).toBe(4);
    // The summary wraps long lines at 80 columns: joined again before matching.
    expect(result.stdout.replace(/\n +/g, " ")).toMatch(/stopped by: .*boom \\x1b\[2J/);
    expect(result.stderr).toMatch(/retry 1\/1/);
    expectNeutralised(result.stdout);
    expectNeutralised(result.stderr);
  });

  test("in the export summary's warnings", () => {
    const summary: RunSummary = {
      ...newRunSummary("r"),
      requests: 1,
      pages: 1,
      warnings: [`call listed late: ${hostileText}`],
    };
    const text = describeRun(summary, loadExportConfig({ flags: {}, env: {} }));
    expect(text).toMatch(/warning: call listed late: boom \\x1b\[2J/);
    expectNeutralised(text);
  });

  test("in operation get, live (text and --json) and --from-db", async () => {
    const id = String(validCall(1).id);
    const api = await hostile((request, res) => {
      if (request.path === "/user/api-calls") sendJson(res, 200, pageBody([validCall(1)], null));
      else if (request.path.startsWith("/async/operations/"))
        sendJson(res, 200, failedOperation(id, hostileText));
      else sendJson(res, 404, errorBody(404, "not found"));
    });
    const env = { ZOO_API_TOKEN: TOKEN, ZOO_HOST: api.url };
    const live = await runCli(["operation", "get", id], { env });
    expect(live.code, live.stderr).toBe(5);
    expect(live.stdout).toMatch(/error\s+boom \uFFFD\[2J/);
    expectNeutralised(live.stdout);

    const json = await runCli(["operation", "get", id, "--json"], { env });
    expect(json.code, json.stderr).toBe(5);
    expectNeutralised(json.stdout);
    // Escaped, not replaced: the JSON still holds the API's exact text.
    expect((JSON.parse(json.stdout) as { error: string }).error).toBe(hostileText);

    const w = await workspace();
    const exported = await runCli(exportArgs(w, "--operations", "all"), { env });
    expect(exported.code, exported.stderr).toBe(0);
    const stored = await runCli(["operation", "get", id, "--from-db", "--db", w.db], {
      env: {},
    });
    expect(stored.code, stored.stderr).toBe(5);
    expect(stored.stdout).toMatch(/error\s+boom \uFFFD\[2J/);
    expectNeutralised(stored.stdout);
    const storedJson = await runCli(["operation", "get", id, "--from-db", "--db", w.db, "--json"], {
      env: {},
    });
    expectNeutralised(storedJson.stdout);
    expect((JSON.parse(storedJson.stdout) as { error: string }).error).toBe(hostileText);
  });
});
