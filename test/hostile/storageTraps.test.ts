import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { describeContent } from "../../src/load/warehouseFile.js";
import { type CliResult, runCli } from "../helpers/cli.js";
import { queryDb, tempWorkspace, writeDb } from "../helpers/exportHarness.js";
import { fileSha256 } from "../helpers/fileSha256.js";
import { type HostileApi, pagedHandler, startHostileApi, validCall } from "../helpers/hostileApi.js";
import { unusedPid } from "../helpers/unusedPid.js";

const OWNER_FILE = "_zoo_usage_owner.json";

/** sha256 and mtime: "untouched" means both, since DuckDB can rewrite a file with the same bytes. */
async function print(file: string): Promise<{ sha: string; mtimeMs: number; size: number }> {
  const stats = await stat(file);
  return { sha: await fileSha256(file), mtimeMs: stats.mtimeMs, size: stats.size };
}

let api: HostileApi;
let env: Record<string, string>;
beforeAll(async () => {
  api = await startHostileApi(
    pagedHandler([{ items: [validCall(1), validCall(2), validCall(3)] }, { items: [validCall(40_000)] }]),
  );
  env = { ZOO_API_TOKEN: "hostile-token-storage-traps", ZOO_HOST: api.url };
});
afterAll(() => api.close());

/** Refused with exit 2; with --json, stdout is the run's one line, saying so with the same code. */
function expectRefused(result: CliResult, code: string, message: RegExp, json = false): void {
  expect(result.code, result.stderr).toBe(2);
  expect(result.stderr).toMatch(message);
  expect(result.stderr).toMatch(/hint: /);
  expect(result.stderr).toContain(`code: ${code}`);
  if (!json) {
    expect(result.stdout).toBe("");
    return;
  }
  expect(result.stdout.split("\n")).toHaveLength(2);
  expect(JSON.parse(result.stdout)).toMatchObject({ status: "failed", exit_code: 2, error: { code } });
}

describe("--db that is not a zoo-usage warehouse: refused up front, exit 2, file untouched", () => {
  test.each([
    [
      "a CSV file",
      "calls.csv",
      "id,price\n1,0.5\n2,0.25\n",
      /calls\.csv" is not a DuckDB database: it looks like a CSV file/,
    ],
    ["a text file", "notes.duckdb", "my notes\n", /it looks like a text file/],
    ["an empty file", "empty.duckdb", "", /it looks like an empty file/],
  ])("%s", async (_, name, content, message) => {
    const { dir, out, cleanup } = await tempWorkspace();
    try {
      const db = path.join(dir, name);
      await writeFile(db, content);
      const before = await print(db);
      const requests = api.requests.length;
      const result = await runCli(["export", "--db", db, "--out", out, "--json"], { env });
      expectRefused(result, "warehouse.not_duckdb", message, true);
      expect(await print(db)).toEqual(before);
      // Refused before the API was asked or anything was created beside it.
      expect(api.requests.length).toBe(requests);
      expect(await readdir(dir)).toEqual([name]);
    } finally {
      await cleanup();
    }
  });

  test("a Parquet file (written by DuckDB): refused by export, report and operation get --from-db", async () => {
    const { dir, out, cleanup } = await tempWorkspace();
    try {
      const db = path.join(dir, "calls.parquet");
      await writeDb(
        path.join(dir, "scratch.duckdb"),
        `COPY (SELECT 1 AS id, 0.5::DECIMAL(18,6) AS price) TO '${db}' (FORMAT parquet)`,
      );
      await rm(path.join(dir, "scratch.duckdb"));
      const before = await print(db);
      const exported = await runCli(["export", "--db", db, "--out", out, "--json"], { env });
      expectRefused(exported, "warehouse.not_duckdb", /it looks like a Parquet file/, true);
      const report = await runCli(["report", "--db", db]);
      expectRefused(report, "warehouse.not_duckdb", /it looks like a Parquet file/);
      const fromDb = await runCli([
        "operation",
        "get",
        "00000000-0000-4000-8000-000000000000",
        "--from-db",
        "--db",
        db,
      ]);
      expectRefused(fromDb, "warehouse.not_duckdb", /it looks like a Parquet file/);
      expect(await print(db)).toEqual(before);
      expect(await readdir(dir)).toEqual(["calls.parquet"]);
    } finally {
      await cleanup();
    }
  });

  test.each([":memory:", "md:zoo_usage", "s3://bucket/zoo.duckdb"])(
    "%s: a warehouse must be a file; nothing is created",
    async (name) => {
      const { dir, out, cleanup } = await tempWorkspace();
      try {
        const result = await runCli(["export", "--db", name, "--out", out], { env, cwd: dir });
        expectRefused(result, "warehouse.not_duckdb", /special name or URL, not a file path/);
        expect(result.stderr).toMatch(/must be a local file/);
        const fromDb = await runCli(
          ["operation", "get", "00000000-0000-4000-8000-000000000000", "--from-db", "--db", name],
          { cwd: dir },
        );
        expectRefused(fromDb, "warehouse.not_duckdb", /special name or URL/);
        expect(await readdir(dir)).toEqual([]);
      } finally {
        await cleanup();
      }
    },
  );

  test("a DuckDB file with another tool's api_calls table: warehouse.unrelated, file untouched", async () => {
    const { dir, out, cleanup } = await tempWorkspace();
    try {
      const db = path.join(dir, "proxy_logs.duckdb");
      await writeDb(
        db,
        "CREATE TABLE api_calls (id INTEGER, url VARCHAR, created_at TIMESTAMP); INSERT INTO api_calls VALUES (1, '/x', now())",
      );
      const before = await print(db);
      const exported = await runCli(["export", "--db", db, "--out", out], { env });
      expectRefused(
        exported,
        "warehouse.unrelated",
        /proxy_logs\.duckdb is a DuckDB database of something else/,
      );
      expect(exported.stderr).toMatch(/api_calls lacks user_id/);
      expect(exported.stderr).toMatch(/Choose another --db/);
      const report = await runCli(["report", "--db", db]);
      expectRefused(report, "warehouse.unrelated", /of something else/);
      expect(await print(db)).toEqual(before);
      expect(await queryDb(db, "SELECT count(*)::INTEGER AS n FROM duckdb_tables()")).toEqual([{ n: 1 }]);
    } finally {
      await cleanup();
    }
  });

  test("our own warehouse with columns added since, and one made before warehouse ids: both open", async () => {
    const { db, out, cleanup } = await tempWorkspace();
    try {
      expect((await runCli(["export", "--db", db, "--out", out], { env })).code).toBe(0);
      // As a later version's ALTER TABLE ... ADD COLUMN, and a version before warehouse_identity.
      await writeDb(
        db,
        "ALTER TABLE api_calls ADD COLUMN later_field VARCHAR; DROP TABLE internal.warehouse_identity",
      );
      await rm(path.join(out, OWNER_FILE));
      // A dataset without a marker is foreign to every warehouse until one adopts it.
      const refused = await runCli(["export", "--db", db, "--out", out, "--json"], { env });
      expectRefused(refused, "output.foreign_objects", /api_calls\/created_month=/, true);
      const result = await runCli(["export", "--db", db, "--out", out, "--json"], {
        env: { ...env, ZOO_USAGE_ADOPT_OUT: "1" },
      });
      expect(result.code, result.stderr).toBe(0);
      expect(await queryDb(db, "SELECT count(*)::INTEGER AS n FROM internal.warehouse_identity")).toEqual([
        { n: 1 },
      ]);
      // The dataset without an owner file is adopted by the database writing to it; the marker
      // names the database by its file's name, never its local path.
      const owner = JSON.parse(await readFile(path.join(out, OWNER_FILE), "utf8"));
      const [identity] = await queryDb(db, "SELECT warehouse_id FROM internal.warehouse_identity");
      expect(owner).toMatchObject({ warehouse_id: identity?.warehouse_id, database: "zoo_usage.duckdb" });
      expect(JSON.stringify(owner)).not.toContain(path.dirname(db));
    } finally {
      await cleanup();
    }
  });
});

describe("two databases, one --out", () => {
  test("the second is refused before it writes; the owner keeps its dataset, also after moving", async () => {
    const { dir, db, out, cleanup } = await tempWorkspace();
    try {
      expect((await runCli(["export", "--db", db, "--out", out], { env })).code).toBe(0);
      const partitions = (await readdir(out, { recursive: true })).map(String).sort();
      expect(partitions).toContain(OWNER_FILE);
      expect(partitions.some((name) => name.endsWith("data.parquet"))).toBe(true);
      const prints = await Promise.all(
        partitions.filter((name) => name.endsWith(".parquet")).map((name) => print(path.join(out, name))),
      );

      const second = path.join(dir, "second.duckdb");
      const refused = await runCli(["export", "--db", second, "--out", out, "--json"], { env });
      expectRefused(
        refused,
        "output.other_warehouse",
        /belongs to another database: .*zoo_usage\.duckdb/,
        true,
      );
      expect(refused.stderr).toMatch(/Choose another --out/);
      expect(refused.stderr).toContain(path.join(out, OWNER_FILE));
      // Refused before the new database file was created.
      await expect(stat(second)).rejects.toThrow(/ENOENT/);
      expect((await readdir(out, { recursive: true })).map(String).sort()).toEqual(partitions);
      expect(
        await Promise.all(
          partitions.filter((name) => name.endsWith(".parquet")).map((name) => print(path.join(out, name))),
        ),
      ).toEqual(prints);

      // The owner is the warehouse, not its path: a moved database (its key file moved with it)
      // keeps writing its dataset.
      const moved = path.join(dir, "moved.duckdb");
      await rename(db, moved);
      await rename(path.join(dir, "zoo_usage.key"), path.join(dir, "moved.key"));
      const again = await runCli(["export", "--db", moved, "--out", out], { env });
      expect(again.code, again.stderr).toBe(0);
      expect(JSON.parse(await readFile(path.join(out, OWNER_FILE), "utf8")).database).toBe("moved.duckdb");

      // Once the owner file is removed (the old database is gone), another database takes over.
      await rm(path.join(out, OWNER_FILE));
      const takeover = await runCli(["export", "--db", second, "--out", out, "--adopt-out"], { env });
      expect(takeover.code, takeover.stderr).toBe(0);
      expect(JSON.parse(await readFile(path.join(out, OWNER_FILE), "utf8")).database).toBe("second.duckdb");
    } finally {
      await cleanup();
    }
  });

  test("the owner file is invisible to a Parquet reader globbing the dataset", async () => {
    const { db, out, cleanup } = await tempWorkspace();
    try {
      expect((await runCli(["export", "--db", db, "--out", out, "--no-operations"], { env })).code).toBe(0);
      const rows = await queryDb(
        db,
        `SELECT count(*)::INTEGER AS n FROM read_parquet('${out}/**/*.parquet', hive_partitioning = true)`,
      );
      expect(rows).toEqual(await queryDb(db, "SELECT count(*)::INTEGER AS n FROM api_calls"));
    } finally {
      await cleanup();
    }
  });
});

test("what killed runs leave behind is removed by the next export", async () => {
  const { dir, db, out, cleanup } = await tempWorkspace();
  try {
    expect((await runCli(["export", "--db", db, "--out", out], { env })).code).toBe(0);
    const pid = unusedPid();
    const partition = path.join(out, "api_calls", "created_month=2026-10");
    const leftovers = [
      path.join(
        dir,
        ".zoo_usage.duckdb.spool-20261001T000000Z-dead01",
        "20261001T000000Z-dead01-1-rows.ndjson",
      ),
      path.join(`${db}.tmp`, "duckdb_temp_storage_DEFAULT-0.tmp"),
      path.join(partition, ".data.parquet.20261001T000000Z-dead01.tmp"),
      path.join(out, `.${OWNER_FILE}.${pid}.0badf00d.tmp`),
      path.join(dir, `.zoo_usage.key.${pid}.0badf00d.tmp`),
      path.join(out, `.zoo-usage-write-check-${pid}`),
      path.join(dir, `.zoo-usage-write-check-${pid}`),
    ];
    for (const file of leftovers) {
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, "half-written");
    }
    // Not ours: kept.
    const foreign = path.join(`${db}.tmp`, "keep-me.txt");
    await writeFile(foreign, "a user's file");
    const result = await runCli(["export", "--db", db, "--out", out], { env });
    expect(result.code, result.stderr).toBe(0);
    for (const file of leftovers) await expect(stat(file), file).rejects.toThrow(/ENOENT/);
    expect(await readFile(foreign, "utf8")).toBe("a user's file");
    expect(await readdir(partition)).toEqual(["data.parquet"]);

    // The report's temporary of a killed run beside its --html target; a live process's stays.
    // The live one is another running process's (vitest's, which started this worker): the report
    // runs in this process, and would keep a temporary named with this process's pid for that alone.
    const html = path.join(dir, "spend.html");
    const stale = path.join(dir, `.spend.html.${pid}.0badf00d.tmp`);
    const live = path.join(dir, `.spend.html.${process.ppid}.0badf00d.tmp`);
    await writeFile(stale, "<html");
    await writeFile(live, "<html");
    const report = await runCli(["report", "--db", db, "--html", html]);
    expect(report.code, report.stderr).toBe(0);
    await expect(stat(stale)).rejects.toThrow(/ENOENT/);
    expect(await readFile(live, "utf8")).toBe("<html");
  } finally {
    await cleanup();
  }
});

test.each([
  [Buffer.from("PAR1\x15\x04", "latin1"), "a Parquet file"],
  [Buffer.from("SQLite format 3\0rest", "latin1"), "an SQLite database"],
  [Buffer.from("id,price\n1,0.5\n"), "a CSV file (or other delimited text)"],
  [Buffer.from("id\tprice\r\n1\t0.5\r\n"), "a CSV file (or other delimited text)"],
  [Buffer.from("hello, world\n"), "a text file"],
  [Buffer.from([0x00, 0x01, 0x02, 0xff]), "a file of another format"],
  [Buffer.alloc(0), "an empty file"],
])("a file starting %j is described as %s", (head, what) => {
  expect(describeContent(head)).toBe(what);
});
