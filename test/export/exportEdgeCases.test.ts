import type { ChildProcess } from "node:child_process";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { SecretBox } from "../../src/secrets/secretBox.js";
import { loadSecretKey } from "../../src/secrets/secretKey.js";
import { type RunningSimulator, startSimulator } from "../../src/sim/index.js";
import { listAllCalls } from "../helpers/apiTruth.js";
import { REPO_ROOT, runCli } from "../helpers/cli.js";
import { startCountingProxy } from "../helpers/countingProxy.js";
import { exportOnce, queryDb, tempWorkspace } from "../helpers/exportHarness.js";
import { holdDatabase } from "../helpers/heldDatabase.js";

let sim: RunningSimulator;
let token: string;
beforeAll(async () => {
  sim = await startSimulator({
    seed: 11,
    calls: 3000,
    days: 20,
    users: 2,
    firstUserToken: "zoo-edge-token-5f2b9c7e1d3a",
  });
  token = sim.users[0]?.token ?? "";
});
afterAll(() => sim.close());

/** Breaks records of the first page in known ways; everything else passes through. */
function breakFirstPage(_: string, body: string, search: URLSearchParams): string {
  if (search.has("page_token")) return body;
  const page = JSON.parse(body) as { items: Record<string, unknown>[] };
  const items = page.items;
  const set = (i: number, change: (item: Record<string, unknown>) => void) => {
    const item = items[i];
    if (item !== undefined) change(item);
  };
  set(1, (item) => {
    item.price = "abc";
  });
  set(2, (item) => {
    // A negative price is a price (the spec's double has no minimum); exponent text is not money text.
    item.price = "1e5";
  });
  set(3, (item) => {
    delete item.created_at;
  });
  set(4, (item) => {
    item.id = "not-a-uuid";
  });
  set(5, (item) => {
    item.method = "FETCH";
  });
  set(6, (item) => {
    item.request_body = { kept: true };
    item.brand_new_field = 42;
  });
  return JSON.stringify(page);
}

describe("export edge cases", () => {
  test("broken records land in rejects with the reason; good ones load; unknown fields are kept; exit 4", async () => {
    const proxy = await startCountingProxy(sim.url, breakFirstPage);
    const { db, out, cleanup } = await tempWorkspace();
    try {
      const { summary, exitCode } = await exportOnce({
        baseUrl: proxy.url,
        token,
        flags: { db, out, limit: 100 },
      });
      expect(exitCode).toBe(4);
      expect(summary.status).toBe("partial");
      expect(summary.records_rejected).toBe(5);
      const truth = await listAllCalls(sim.url, token);
      expect(summary.records_new).toBe(truth.length - 5);
      const rejects = await queryDb(db, "SELECT record_id, reason, raw_json FROM rejects ORDER BY reason");
      const reasons = rejects.map((row) => String(row.reason)).join("\n");
      expect(reasons).toMatch(/price must be a decimal number or string, got "1e5"/);
      expect(reasons).toMatch(/created_at/);
      expect(reasons).toMatch(/→ at id/);
      expect(reasons).toMatch(/→ at method/);
      for (const row of rejects) expect(String(row.raw_json)).not.toMatch(/"token":"[0-9a-f-]{36}"/);
      const extra = await queryDb(
        db,
        "SELECT extra::VARCHAR AS extra FROM api_calls WHERE extra IS NOT NULL",
      );
      expect(extra.map((row) => JSON.parse(String(row.extra)))).toEqual([
        { request_body: { kept: true }, brand_new_field: 42 },
      ]);
      const runs = await queryDb(db, "SELECT status, records_rejected::INTEGER AS rejected FROM runs");
      expect(runs).toEqual([{ status: "partial", rejected: 5 }]);
    } finally {
      await proxy.close();
      await cleanup();
    }
  });

  test("a stored page token the API rejects leads to a full scan that ends correct, said plainly", async () => {
    const { db, out, cleanup } = await tempWorkspace();
    try {
      await exportOnce({ baseUrl: sim.url, token, flags: { db, out, limit: 300 } });
      // Replace every stored position with a token the API cannot parse (sealed, as the exporter stores them).
      const box = new SecretBox(
        (await loadSecretKey({ fromEnv: undefined, keyFile: db.replace(/\.duckdb$/, ".key") })).key,
      );
      const instance = await DuckDBInstance.create(db);
      const connection = await instance.connect();
      await connection.run("UPDATE internal.page_ladder SET token = $token", {
        token: box.seal("bm90LWEtdG9rZW4"),
      });
      connection.closeSync();
      instance.closeSync();
      sim.clock.advance(3_600_000);
      const { summary, exitCode } = await exportOnce({
        baseUrl: sim.url,
        token,
        flags: { db, out, limit: 300 },
      });
      expect(exitCode).toBe(0);
      expect(summary.scan_mode).toBe("full");
      expect(summary.warnings.join("\n")).toMatch(/rejected the stored page token.*full scan/);
      const truth = await listAllCalls(sim.url, token);
      const stored = await queryDb(
        db,
        "SELECT count(*)::INTEGER AS n, count(DISTINCT id)::INTEGER AS ids FROM api_calls",
      );
      expect(stored).toEqual([{ n: truth.length, ids: truth.length }]);
    } finally {
      await cleanup();
    }
  });

  test("a database created with the former primary key on api_calls keeps exporting, exactly once per id", async () => {
    const { db, out, cleanup } = await tempWorkspace();
    try {
      const sqlText = (file: string) => readFile(path.join(REPO_ROOT, "sql", file), "utf8");
      const apiCalls = await sqlText("tables/api_calls.sql");
      const withKey = apiCalls.replace(/\bid(\s+)UUID NOT NULL,/, "id$1UUID PRIMARY KEY,");
      expect(withKey).not.toBe(apiCalls);
      const exportState =
        (await sqlText("internal/schema.sql")) + (await sqlText("internal/export_state.sql"));
      // The table's back-fill of its stored days uses the schema's macros, applied before it.
      const macros = await sqlText("functions/utc.sql");
      const instance = await DuckDBInstance.create(db);
      const connection = await instance.connect();
      await connection.run(macros + withKey + exportState);
      connection.closeSync();
      instance.closeSync();
      await exportOnce({ baseUrl: sim.url, token, flags: { db, out, limit: 300 } });
      sim.clock.advance(3_600_000);
      const { exitCode } = await exportOnce({ baseUrl: sim.url, token, flags: { db, out, limit: 300 } });
      expect(exitCode).toBe(0);
      const truth = await listAllCalls(sim.url, token);
      const stored = await queryDb(
        db,
        "SELECT count(*)::INTEGER AS n, count(DISTINCT id)::INTEGER AS ids, (SELECT count(*) FROM duckdb_constraints() WHERE table_name = 'api_calls' AND constraint_type = 'PRIMARY KEY')::INTEGER AS keys FROM api_calls",
      );
      expect(stored).toEqual([{ n: truth.length, ids: truth.length, keys: 1 }]);
    } finally {
      await cleanup();
    }
  });

  test("a database held by another process: exit 6 with a clear message, then the next run catches up", async () => {
    const { db, out, cleanup } = await tempWorkspace();
    let holder: ChildProcess | undefined;
    try {
      await exportOnce({ baseUrl: sim.url, token, flags: { db, out } });
      const before = await queryDb(db, "SELECT count(*)::INTEGER AS n FROM api_calls");
      holder = await holdDatabase(db);
      sim.clock.advance(3_600_000);
      const env = { ZOO_API_TOKEN: token, ZOO_HOST: sim.url };
      const blocked = await runCli(["export", "--db", db, "--out", out], { env });
      expect(blocked.code).toBe(6);
      expect(blocked.stderr).toMatch(/in use by another process/);
      expect(blocked.stderr).not.toContain(token);
      holder.kill("SIGKILL");
      await new Promise((resolve) => holder?.once("close", resolve));
      expect(await queryDb(db, "SELECT count(*)::INTEGER AS n FROM api_calls")).toEqual(before);
      const next = await runCli(["export", "--db", db, "--out", out, "--json"], { env });
      expect(next.code, next.stderr).toBe(0);
      const summary = JSON.parse(next.stdout) as { status: string; records_new: number };
      expect(summary.status).toBe("completed");
      expect((await listAllCalls(sim.url, token)).length).toBe(Number(before[0]?.n) + summary.records_new);
    } finally {
      holder?.kill("SIGKILL");
      await cleanup();
    }
  });

  test("neither the API token nor any page token is written to the database, Parquet or key files", async () => {
    const { dir, db, out, cleanup } = await tempWorkspace();
    try {
      const pageTokens: string[] = [];
      const proxy = await startCountingProxy(sim.url, (_, body) => {
        const next = (JSON.parse(body) as { next_page?: string | null }).next_page;
        if (next) pageTokens.push(next);
        return body;
      });
      const result = await runCli(["export", "--db", db, "--out", out, "--limit", "200", "--debug"], {
        env: { ZOO_API_TOKEN: token, ZOO_HOST: proxy.url },
      });
      await proxy.close();
      expect(result.code, result.stderr).toBe(0);
      expect(pageTokens.length).toBeGreaterThan(3);
      const files = (await readdir(dir, { recursive: true })).map((name) => path.join(dir, String(name)));
      const contents = [result.stdout, result.stderr];
      for (const file of files)
        contents.push((await readFile(file).catch(() => Buffer.alloc(0))).toString("latin1"));
      const everything = contents.join("\n");
      expect(everything).not.toContain(token);
      for (const pageToken of pageTokens) expect(everything).not.toContain(pageToken);
    } finally {
      await cleanup();
    }
  });
});
