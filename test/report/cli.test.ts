import { createHash } from "node:crypto";
import { readdir, readFile, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { ReportFigures } from "../../src/report/figures.js";
import { runCli } from "../helpers/cli.js";
import { queryDb } from "../helpers/exportHarness.js";
import { buildWarehouse } from "./fixtures.js";

const sha256 = async (file: string) =>
  createHash("sha256")
    .update(await readFile(file))
    .digest("hex");

describe("zoo-usage report (the built CLI)", () => {
  let fixture: Awaited<ReturnType<typeof buildWarehouse>>;

  beforeAll(async () => {
    fixture = await buildWarehouse({ seed: 12, calls: 3000, days: 40 });
  });
  afterAll(() => fixture.cleanup());

  test("--json: the figures equal SELECT ... FROM cost_per_day and cost_per_endpoint", async () => {
    const result = await runCli(["report", "--db", fixture.db, "--json", "--top", "4"]);
    expect(result.code, result.stderr).toBe(0);
    const figures = JSON.parse(result.stdout) as ReportFigures;

    const days = await queryDb(
      fixture.db,
      "SELECT strftime(day, '%Y-%m-%d') AS day, calls, cost_usd::VARCHAR AS cost FROM cost_per_day ORDER BY day",
    );
    expect(figures.days.map((d) => [d.day, d.calls, d.cost_usd])).toEqual(
      days.map((d) => [d.day, Number(d.calls), d.cost]),
    );
    const [total] = await queryDb(fixture.db, "SELECT sum(cost_usd)::VARCHAR AS cost FROM cost_per_day");
    expect(figures.totals.cost_usd).toBe(total?.cost);
    const endpoints = await queryDb(
      fixture.db,
      "SELECT endpoint_template, calls, cost_usd::VARCHAR AS cost FROM cost_per_endpoint LIMIT 4",
    );
    expect(figures.endpoints.top.map((e) => [e.endpoint_template, e.calls, e.cost_usd])).toEqual(
      endpoints.map((e) => [e.endpoint_template, Number(e.calls), e.cost]),
    );
    // Money is decimal text in the JSON, never a number.
    expect(result.stdout).toMatch(/"cost_usd": "\d+\.\d{6}"/);
    expect(result.stdout).not.toMatch(/"cost_usd": \d/);
  });

  test("the machine's time zone changes nothing: days are UTC", async () => {
    const utc = await runCli(["report", "--db", fixture.db, "--json", "--from", "2026-10-10"]);
    const auckland = await runCli(["report", "--db", fixture.db, "--json", "--from", "2026-10-10"], {
      env: { TZ: "Pacific/Auckland" },
    });
    expect(auckland.code, auckland.stderr).toBe(0);
    const strip = (text: string) => ({ ...(JSON.parse(text) as ReportFigures), generated_at: "" });
    expect(strip(auckland.stdout)).toEqual(strip(utc.stdout));
    expect(strip(utc.stdout).days[0]?.day).toBe("2026-10-10");
  });

  test("the terminal shows period, spend, the 30-day chart, top endpoints, pending and rejects", async () => {
    const result = await runCli(["report", "--db", fixture.db]);
    expect(result.code, result.stderr).toBe(0);
    const [top] = await queryDb(
      fixture.db,
      "SELECT endpoint_template AS t FROM cost_per_endpoint WHERE endpoint_template IS NOT NULL LIMIT 1",
    );
    const out = result.stdout;
    expect(out).toMatch(/^period\s+\d{4}-\d{2}-\d{2} \.\. \d{4}-\d{2}-\d{2}/m);
    expect(out).toMatch(/^spend\s+[\d,]+\.\d{6} USD over [\d,]+ calls/m);
    expect(out).toMatch(/spend per day, \d{4}-\d{2}-\d{2} \.\. \d{4}-\d{2}-\d{2} \(30 UTC days\)/);
    expect(out).toMatch(/^ {2}[▁▂▃▄▅▆▇█·]{30}$/m);
    expect(out).toContain(String(top?.t));
    expect(out).toMatch(/^pending\s+/m);
    expect(out).toMatch(/^rejects\s+none/m);
  });

  test("--html writes one self-contained page atomically, and the database is not touched", async () => {
    const before = await sha256(fixture.db);
    const target = path.join(fixture.dir, "report.html");
    // Another read-only reader holds the file meanwhile: a report must still open it.
    const reader = await DuckDBInstance.create(fixture.db, { access_mode: "READ_ONLY" });
    try {
      const result = await runCli(["report", "--db", fixture.db, "--html", target]);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toContain(`HTML report: ${target}`);
    } finally {
      reader.closeSync();
    }
    const html = await readFile(target, "utf8");
    expect(html.startsWith("<!doctype html>")).toBe(true);
    expect(html).not.toMatch(/<script|<link|<img|<iframe|@import|url\(/i);
    // The only URL in the page is the SVG namespace: a name, never fetched.
    for (const url of html.match(/https?:\/\/[^"\s<]+/g) ?? [])
      expect(url).toBe("http://www.w3.org/2000/svg");
    expect((await readdir(fixture.dir)).filter((name) => name.endsWith(".tmp"))).toEqual([]);
    expect(await sha256(fixture.db)).toBe(before);
  });

  test.each([
    [["--from", "2026-02-30"], /--from expects a UTC calendar day written YYYY-MM-DD, got "2026-02-30"/],
    [["--to", "last week"], /--to expects a UTC calendar day/],
    [["--from", "2026-10-05", "--to", "2026-10-01"], /--from 2026-10-05 is after --to 2026-10-01/],
  ])("%j: exit 2 with config.invalid", async (args, message) => {
    const result = await runCli(["report", "--db", fixture.db, ...args]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).toContain("code: config.invalid");
    expect(result.stdout).toBe("");
  });

  test("a missing database: exit 2, a clear message, and no file created", async () => {
    const missing = path.join(fixture.dir, "nope", "zoo_usage.duckdb");
    const result = await runCli(["report", "--db", missing]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`No zoo-usage database at ${missing}`);
    expect(result.stderr).toContain("zoo-usage export");
    expect(result.stderr).toContain("code: config.invalid");
    await expect(stat(missing)).rejects.toThrow();
    // $ZOO_USAGE_DB is the default, as for export.
    const fromEnv = await runCli(["report"], { env: { ZOO_USAGE_DB: missing } });
    expect(fromEnv.stderr).toContain(`No zoo-usage database at ${missing}`);
  });

  test("a file that is not a zoo-usage database, or an unwritable --html: exit 2", async () => {
    const other = path.join(fixture.dir, "other.duckdb");
    const instance = await DuckDBInstance.create(other);
    instance.closeSync();
    const notOurs = await runCli(["report", "--db", other]);
    expect(notOurs.code).toBe(2);
    expect(notOurs.stderr).toContain("is not a zoo-usage database");
    expect(notOurs.stderr).toContain("code: warehouse.unreadable");

    const text = path.join(fixture.dir, "notes.txt");
    await writeFile(text, "not a database");
    expect((await runCli(["report", "--db", text])).code).toBe(2);

    const unwritable = await runCli([
      "report",
      "--db",
      fixture.db,
      "--html",
      path.join(fixture.dir, "missing-dir", "r.html"),
    ]);
    expect(unwritable.code).toBe(2);
    expect(unwritable.stderr).toContain("code: output.unwritable");
  });
});
