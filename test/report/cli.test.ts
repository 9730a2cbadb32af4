import { copyFile, readdir, readFile, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { cents } from "../../src/report/cents.js";
import type { ReportFigures } from "../../src/report/figures.js";
import { runCli } from "../helpers/cli.js";
import { queryDb, writeDb } from "../helpers/exportHarness.js";
import { fileSha256 } from "../helpers/fileSha256.js";
import { buildWarehouse } from "./fixtures.js";

// That the machine's time zone changes nothing needs a process in another zone: test/e2e/startup.test.ts.
describe("zoo-usage report", () => {
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

  test("the terminal shows period, spend, the 30-day chart, top endpoints, pending and rejects", async () => {
    const result = await runCli(["report", "--db", fixture.db]);
    expect(result.code, result.stderr).toBe(0);
    const [top] = await queryDb(
      fixture.db,
      "SELECT endpoint_template AS t FROM cost_per_endpoint WHERE endpoint_template IS NOT NULL LIMIT 1",
    );
    const out = result.stdout;
    expect(out).toMatch(/^period\s+\d{4}-\d{2}-\d{2} \.\. \d{4}-\d{2}-\d{2}/m);
    expect(out).toMatch(/^spend\s+[\d,]+\.\d{2} USD over [\d,]+ calls/m);
    // The whole period (40 days fit a line): one character per day.
    const [days] = await queryDb(
      fixture.db,
      "SELECT (max(day) - min(day) + 1)::INTEGER AS n FROM cost_per_day",
    );
    expect(Number(days?.n)).toBeGreaterThanOrEqual(39);
    expect(out).toMatch(
      new RegExp(`spend per day, \\d{4}-\\d{2}-\\d{2} \\.\\. \\d{4}-\\d{2}-\\d{2} \\(${days?.n} UTC days\\)`),
    );
    expect(out).toMatch(new RegExp(`^ {2}[▁▂▃▄▅▆▇█·]{${days?.n}}$`, "m"));
    // The monthly table: each month's spend to the cent (exact in --json).
    const months = await queryDb(
      fixture.db,
      "SELECT strftime(month, '%Y-%m') AS month, cost_usd::VARCHAR AS cost FROM cost_per_month ORDER BY month",
    );
    expect(out).toContain("spend per UTC month");
    for (const month of months) {
      const cost = cents(String(month.cost));
      expect(out).toMatch(new RegExp(`^ {2}${month.month} +${cost.replace(".", "\\.")} `, "m"));
    }
    expect(out).toContain(String(top?.t));
    expect(out).toMatch(/^pending\s+/m);
    expect(out).toMatch(/^rejects\s+none/m);
  });

  test("--html writes one self-contained page atomically, and the database is not touched", async () => {
    const before = await fileSha256(fixture.db);
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
    expect(await fileSha256(fixture.db)).toBe(before);
  });

  test("--month 2026-10: the whole UTC month, the daily chart from the 1st to the 31st", async () => {
    const month = await runCli(["report", "--db", fixture.db, "--month", "2026-10", "--json"]);
    expect(month.code, month.stderr).toBe(0);
    const figures = JSON.parse(month.stdout) as ReportFigures;
    expect([figures.period.from, figures.period.to]).toEqual(["2026-10-01", "2026-10-31"]);
    expect(figures.recent).toMatchObject({ first_day: "2026-10-01", last_day: "2026-10-31" });
    const [view] = await queryDb(
      fixture.db,
      "SELECT calls, cost_usd::VARCHAR AS cost FROM cost_per_month WHERE month = DATE '2026-10-01'",
    );
    expect(figures.months).toEqual([
      expect.objectContaining({
        month: "2026-10",
        first_day: "2026-10-01",
        last_day: "2026-10-31",
        calls: Number(view?.calls),
        cost_usd: view?.cost,
      }),
    ]);
    // The same period written as days, or as months: the same figures.
    const days = await runCli([
      "report",
      "--db",
      fixture.db,
      "--from",
      "2026-10-01",
      "--to",
      "2026-10-31",
      "--json",
    ]);
    const months = await runCli([
      "report",
      "--db",
      fixture.db,
      "--from",
      "2026-10",
      "--to",
      "2026-10",
      "--json",
    ]);
    const strip = (text: string) => ({ ...(JSON.parse(text) as ReportFigures), generated_at: "" });
    expect(strip(days.stdout)).toEqual(strip(month.stdout));
    expect(strip(months.stdout)).toEqual(strip(month.stdout));

    const text = await runCli(["report", "--db", fixture.db, "--from", "2026-10-01", "--to", "2026-10-31"]);
    expect(text.stdout).toContain("spend per day, 2026-10-01 .. 2026-10-31 (31 UTC days)");
    expect(text.stdout).toMatch(/^ {2}[▁▂▃▄▅▆▇█·]{31}$/m);
    expect(text.stdout).toMatch(/^ {2}10-01 +10-31 /m);

    // The HTML charts: one column slot per day, the first labelled 2026-10-01.
    const page = path.join(fixture.dir, "october.html");
    expect((await runCli(["report", "--db", fixture.db, "--month", "2026-10", "--html", page])).code).toBe(0);
    const html = await readFile(page, "utf8");
    const spend = html.slice(html.indexOf('aria-label="Spend per UTC day, USD"'));
    expect(spend).toMatch(/^[\s\S]*?<text [^>]*text-anchor="middle"[^>]*>2026-10-01<\/text>/);
    expect(spend.slice(0, spend.indexOf("</svg>"))).not.toContain("2026-09-30");
  });

  test("emails only with --show-email, in --json, the terminal and the page", async () => {
    const [top] = await queryDb(
      fixture.db,
      "SELECT email FROM api_calls ORDER BY price_usd DESC NULLS LAST, created_at, id LIMIT 1",
    );
    const email = String(top?.email);
    expect(email).toContain("@");
    const hidden = await runCli(["report", "--db", fixture.db, "--json"]);
    expect(hidden.stdout).not.toContain(email);
    expect(hidden.stdout).not.toContain('"email"');
    expect((JSON.parse(hidden.stdout) as ReportFigures).emails_shown).toBe(false);
    const shown = await runCli(["report", "--db", fixture.db, "--json", "--show-email"]);
    expect((JSON.parse(shown.stdout) as ReportFigures).most_expensive_calls[0]?.email).toBe(email);
    const page = path.join(fixture.dir, "no-email.html");
    const terminal = await runCli(["report", "--db", fixture.db, "--html", page]);
    expect(terminal.stdout).not.toContain("@");
    expect(await readFile(page, "utf8")).not.toContain(email);
    const help = await runCli(["report", "--help"]);
    expect(help.stdout).toMatch(/--show-email\s+show the email address/);
  });

  test.each([
    [["--month", "2026-10", "--from", "2026-10-02"], /--month cannot be combined with --from or --to/],
    [["--month", "10/2026"], /--month expects a UTC calendar month written YYYY-MM, got "10\/2026"/],
    [["--to", "2026-13"], /--to expects a UTC calendar day written YYYY-MM-DD, got "2026-13"/],
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

  test("rollups a stopped export left behind: the report says so, and still reports", async () => {
    const copy = `${fixture.db}.lagging.duckdb`;
    await copyFile(fixture.db, copy);
    await writeDb(
      copy,
      "INSERT INTO internal.stale_class_days SELECT DISTINCT created_day FROM api_calls LIMIT 2",
    );
    const stale = await runCli(["report", "--db", copy, "--json"]);
    expect(stale.code, stale.stderr).toBe(0);
    expect(stale.stderr).toMatch(
      /2 UTC days of calls changed since their rollups were made .*zoo-usage export/,
    );
    await writeDb(copy, "DELETE FROM internal.stale_class_days; UPDATE invoices SET status = 'void'");
    const invoices = await runCli(["report", "--db", copy]);
    expect(invoices.code, invoices.stderr).toBe(0);
    expect(invoices.stderr).toMatch(/the invoices changed since the calls' billing classes were made/);
    await writeDb(copy, "UPDATE internal.export_state SET classified_invoices = NULL");
    const unfinished = await runCli(["report", "--db", copy]);
    expect(unfinished.code, unfinished.stderr).toBe(0);
    expect(unfinished.stderr).toMatch(/billing classes and rollups were never completed/);
    // An up-to-date database: no such warning.
    const fresh = await runCli(["report", "--db", fixture.db]);
    expect(fresh.stderr).not.toMatch(/rollups/);
  });

  test("a missing database: exit 2, a clear message, and no file created", async () => {
    const missing = path.join(fixture.dir, "nope", "zoo_usage.duckdb");
    const result = await runCli(["report", "--db", missing]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`No zoo-usage database at ${missing}`);
    expect(result.stderr).toContain("zoo-usage export");
    // What works from a clone and from an install alike: the demo command, not `npm start`.
    expect(result.stderr).toContain("`zoo-usage demo` and pass --db zoo-usage-demo/zoo_usage.duckdb");
    expect(result.stderr).not.toContain("npm start");
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
