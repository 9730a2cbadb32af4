import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type RunningSimulator, startSimulator } from "../../src/sim/index.js";
import { listAllCalls } from "../helpers/apiTruth.js";
import { type CliResult, outputSeen, runCli, spawnCli } from "../helpers/cli.js";
import { queryDb, tempWorkspace } from "../helpers/exportHarness.js";
import {
  errorBody,
  pageBody,
  resourcesPerTest,
  sendJson,
  startHostileApi,
  validCall,
} from "../helpers/hostileApi.js";

/**
 * Outcomes only a process of its own shows, through the built CLI: a second signal, which ends the
 * process at once, and a file-size limit (`ulimit -f`) its shell set on it. The runs after them,
 * which check what they left, run in-process. Their neighbours are in test/hostile/: one signal in
 * jsonLines.test.ts, a full file system in storageFull.test.ts.
 */
const resources = resourcesPerTest();

describe("--json on an interrupted run (exit 130)", () => {
  const TOKEN = "t-jsonlines-0123456789";

  test("a second signal, which ends the process at once: still exactly one line", async () => {
    // A stand-in that never answers the list request; `asked` resolves when it has it.
    let onAsked: () => void = () => {};
    const asked = new Promise<void>((resolve) => {
      onAsked = resolve;
    });
    const api = await resources.hostile(() => onAsked());
    const w = await resources.workspace();
    const result = await spawnCli(["export", "--db", w.db, "--out", w.out, "--no-operations", "--json"], {
      env: { ZOO_API_TOKEN: TOKEN, ZOO_HOST: api.url },
      timeoutMs: 30_000,
      onSpawn: (child) => {
        const stopping = outputSeen(child.stderr, /SIGINT: stopping/);
        void asked.then(() => child.kill("SIGINT"));
        void stopping.then(() => child.kill("SIGINT"));
      },
    });
    expect(result.code, result.stderr).toBe(130);
    // Exactly one newline-terminated line of stdout, the run's.
    expect(result.stdout.endsWith("\n"), result.stdout).toBe(true);
    const lines = result.stdout.slice(0, -1).split("\n");
    expect(lines, result.stdout).toHaveLength(1);
    expect(JSON.parse(lines[0] ?? "")).toMatchObject({ status: "interrupted", exit_code: 130 });
  });
});

/** The export run under `ulimit -f <kib>`, through bash: the limit is the process's own. */
function exportUnderFileSizeLimit(kib: number, args: string[], env: Record<string, string>) {
  return spawnCli(["-c", `ulimit -f ${kib}; exec "${process.execPath}" "$@"`, "bash", "CLI", ...args], {
    env,
    shell: "/bin/bash",
  });
}

describe("a file-size limit (ulimit -f): exit 2 with the storage hint, then recovery", () => {
  let sim: RunningSimulator;
  let env: Record<string, string>;
  beforeAll(async () => {
    sim = await startSimulator({ seed: 53, calls: 8000, days: 10, users: 1 });
    env = { ZOO_API_TOKEN: sim.users[0]?.token ?? "", ZOO_HOST: sim.url };
  });
  afterAll(() => sim.close());

  test("met while DuckDB checkpoints: the next run stores every call", async () => {
    const { db, out, cleanup } = await tempWorkspace();
    try {
      // ulimit -f is in KiB: with batches and pages of 500, each batch's spool file fits under the
      // limit, a database of a few thousand calls does not.
      const args = ["export", "--no-operations", "--batch-records", "500", "--limit", "500"];
      const result: CliResult = await exportUnderFileSizeLimit(
        1024,
        [...args, "--db", db, "--out", out],
        env,
      );
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toContain(`error: Cannot write the database ${db}`);
      // DuckDB's own words: the checkpoint failed writing the database file.
      expect(result.stderr).toMatch(/checkpoint/i);
      expect(result.stderr).toMatch(/File too large/);
      expect(result.stderr).toMatch(/hint: A file-size limit was hit/);
      expect(result.stderr).toContain("code: output.unwritable");
      expect(result.stderr).not.toMatch(/unexpected failure/);
      // Once the limit is lifted, the next run ends with every call the API lists.
      const truth = await listAllCalls(sim.url, env.ZOO_API_TOKEN ?? "");
      const again = await runCli(["export", "--db", db, "--out", out, "--no-operations"], { env });
      expect(again.code, again.stderr).toBe(0);
      const stored = new Set(
        (await queryDb(db, "SELECT id::VARCHAR AS id FROM api_calls")).map((row) => String(row.id)),
      );
      expect(truth.filter((call) => !stored.has(call.id))).toEqual([]);
    } finally {
      await cleanup();
    }
  });

  /**
   * Met while the invoices are written (not the calls): the run ends 2 with the storage hint, as a
   * full disk anywhere else does, its calls stay stored, and once the limit is lifted the next run
   * stores every invoice.
   */
  test("met during the invoices write: the calls stay, the next run stores the invoices", async () => {
    const INVOICES = 600;
    const invoice = (n: number) => ({
      id: `in_${n}`,
      status: "paid",
      created_at: "2026-10-01T00:00:00Z",
      currency: "usd",
      subtotal: 150,
      total: 150,
      description: `invoice ${n} `.repeat(20),
      lines: Array.from({ length: 300 }, (_, k) => ({
        id: `il_${n}_${k}`,
        amount: 0.5,
        invoice_item: `ii_${n}_${k}`,
      })),
    });
    const api = await startHostileApi((request, res) => {
      const start = Number(request.query.get("page_token") ?? 0);
      if (request.path === "/user/api-calls")
        return sendJson(
          res,
          200,
          start === 0 ? pageBody([validCall(1), validCall(2)], "1") : pageBody([], null),
        );
      if (request.path === "/user/payment/invoices") {
        const items = Array.from({ length: Math.max(0, Math.min(100, INVOICES - start)) }, (_, k) =>
          invoice(start + k),
        );
        return sendJson(res, 200, pageBody(items, items.length === 0 ? null : String(start + 100)));
      }
      sendJson(res, 404, errorBody(404, "not found"));
    });
    resources.onCleanup(() => api.close());
    const { db, out } = await resources.workspace();
    const hostileEnv = { ZOO_API_TOKEN: "t", ZOO_HOST: api.url };
    const args = ["export", "--no-operations", "--db", db, "--out", out];
    // ulimit -f is in KiB: the schema, the calls and each spool file fit; 180,000 invoice lines do not.
    const limited = await exportUnderFileSizeLimit(6144, args, hostileEnv);
    expect(limited.code, limited.stderr).toBe(2);
    // The database or a spool file beside it, whichever meets the limit first: either way the storage.
    expect(limited.stderr).toMatch(/error: Cannot write the (database|spool file) /);
    expect(limited.stderr).toMatch(/hint: A file-size limit was hit/);
    expect(limited.stderr).not.toMatch(/unexpected failure/);
    const again = await runCli(args, { env: hostileEnv });
    expect(again.code, again.stderr).toBe(0);
    expect(await queryDb(db, "SELECT count(*)::INTEGER AS n FROM api_calls")).toEqual([{ n: 2 }]);
    expect(await queryDb(db, "SELECT count(*)::INTEGER AS n FROM invoice_lines")).toEqual([
      { n: INVOICES * 300 },
    ]);
    expect(await queryDb(db, "SELECT count(*)::INTEGER AS n FROM runs WHERE status = 'running'")).toEqual([
      { n: 0 },
    ]);
  });
});
