import { mkdir } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { cents } from "../../src/report/cents.js";
import { REPO_ROOT, runCli } from "../helpers/cli.js";
import { queryDb } from "../helpers/exportHarness.js";
import { CHROMIUM, chromiumInstalled, launchChromium } from "./chromium.js";
import { buildWarehouse, copyDb, editDb, OPERATION_VIEW_FIXTURES } from "./fixtures.js";
import { measureLayout } from "./pageLayout.js";

const ARTIFACTS = path.join(REPO_ROOT, "test-artifacts");
/** Markup that would run, fetch or break the page if any data reached it unescaped. */
const HOSTILE_ENDPOINT = `/x/</title><script>document.title='pwned'</script><img src="http://zoo-usage.invalid/e.png">`;
const HOSTILE_EMAIL = `"><svg onload="document.title='pwned'"></svg><b>@example.com`;
/** The widths a report is read at: a laptop, a large screen, a phone. */
const WIDTHS = [1280, 1920, 400] as const;

/**
 * Why the page cannot be checked in a browser here, once known: Chromium missing, or its launch
 * failed (the error). Said on the console; under CI=true every test then fails with it instead.
 */
let unavailable: string | undefined = chromiumInstalled()
  ? undefined
  : `${CHROMIUM} is missing: the HTML report was NOT checked in a browser. Install Debian's chromium (apt-get install chromium); .ci/run does.`;

describe("the HTML report in headless Chromium", () => {
  describe("rendered as a user sees it", () => {
    let fixture: Awaited<ReturnType<typeof buildWarehouse>>;
    let browser: Awaited<ReturnType<typeof launchChromium>>;
    /** The default page, and the same report with --show-email. */
    let page: string;
    let pageWithEmail: string;
    /** The same calls priced a million times higher: a 17-character headline must still fit one line. */
    let pageLarge: string;
    let emails: string[];

    beforeAll(async () => {
      if (unavailable === undefined) {
        try {
          browser = await launchChromium({ width: 1280, height: 900 });
        } catch (error) {
          // Playwright's message goes on with the browser's log: its first line here, all of it below.
          const message = (error as Error).message;
          unavailable = `${CHROMIUM} did not launch, so the HTML report was NOT checked in a browser: ${message.split("\n")[0]}`;
          console.warn(message);
        }
      }
      if (unavailable !== undefined) {
        console.warn(`\n*** ${unavailable} ***\n`);
        return;
      }
      // Late billing settles within days, so the first month is invoiced by the end; one line is
      // planted to disagree, so the invoices section has every part to lay out; a balance is stored.
      fixture = await buildWarehouse({
        seed: 13,
        calls: 3000,
        days: 40,
        invoiceDisagreement: true,
        lateBilling: { days: [1, 3] },
      });
      await editDb(fixture.db, [
        ...OPERATION_VIEW_FIXTURES,
        // The most expensive call, so it is in the table and its template in the top endpoints.
        `UPDATE api_calls SET endpoint_template = '${HOSTILE_ENDPOINT.replaceAll("'", "''")}',
           email = '${HOSTILE_EMAIL.replaceAll("'", "''")}'
         WHERE id = (SELECT id FROM api_calls ORDER BY price_usd DESC NULLS LAST LIMIT 1)`,
      ]);
      emails = (
        await queryDb(fixture.db, "SELECT DISTINCT email FROM api_calls WHERE email IS NOT NULL")
      ).map((row) => String(row.email));
      page = path.join(fixture.dir, "report.html");
      pageWithEmail = path.join(fixture.dir, "report-email.html");
      for (const [target, extra] of [
        [page, []],
        [pageWithEmail, ["--show-email"]],
      ] as const) {
        const result = await runCli(["report", "--db", fixture.db, "--html", target, ...extra]);
        if (result.code !== 0) throw new Error(`report failed: ${result.stderr}`);
      }
      const large = await copyDb(fixture.db, "large.duckdb");
      await editDb(large, ["UPDATE api_calls SET price_usd = price_usd * 1000000"]);
      pageLarge = path.join(fixture.dir, "report-large.html");
      const result = await runCli(["report", "--db", large, "--html", pageLarge]);
      if (result.code !== 0) throw new Error(`report failed: ${result.stderr}`);
    });
    // In CI a browser that is missing or does not start is a failure; elsewhere each test says why it skips.
    beforeEach((context) => {
      if (unavailable === undefined) return;
      if (process.env.CI) expect.fail(unavailable);
      context.skip(unavailable);
    });
    afterAll(async () => {
      await browser?.close();
      await fixture?.cleanup();
    });

    /** A tab on a report file that records console errors, dialogs and any request leaving the file. */
    async function open(
      file: string,
      width: number,
    ): Promise<{ tab: Page; outside: string[]; problems: string[] }> {
      const outside: string[] = [];
      const problems: string[] = [];
      const tab = await browser.context.newPage();
      await tab.setViewportSize({ width, height: 900 });
      await tab.route("**/*", (route) => {
        const url = route.request().url();
        if (url.startsWith("file:")) return route.continue();
        outside.push(url);
        return route.abort();
      });
      tab.on("console", (message) => {
        if (message.type() === "error" || message.type() === "warning") problems.push(message.text());
      });
      tab.on("pageerror", (error) => problems.push(error.message));
      tab.on("dialog", (dialog) => {
        problems.push(`dialog: ${dialog.message()}`);
        void dialog.dismiss();
      });
      await tab.goto(pathToFileURL(file).href, { waitUntil: "load" });
      return { tab, outside, problems };
    }

    test("every chart rendered, no console error, no request leaves the file, data shown as text", async () => {
      const { tab, outside, problems } = await open(page, 1280);
      try {
        // Column charts are SVG; bar charts are HTML rows (they re-lay on a narrow screen).
        const charts = await tab.$$eval("svg.chart, .bars", (svgs) =>
          svgs.map((svg) => {
            const box = svg.getBoundingClientRect();
            const marks = [...svg.querySelectorAll(".mark")].filter((mark) => {
              const r = mark.getBoundingClientRect();
              return r.width > 0 && r.height > 0;
            });
            return {
              label: svg.getAttribute("aria-label") ?? "",
              width: box.width,
              height: box.height,
              marks: marks.length,
              empty: svg.querySelector(".empty") !== null,
            };
          }),
        );
        expect(charts.map((chart) => chart.label)).toEqual([
          "Spend per UTC month, USD",
          "Spend per UTC day, USD",
          "Calls per UTC day, failures (status ≥ 400) on top",
          "Spend by endpoint template, USD",
          "Spend by async operation type and status, USD",
        ]);
        for (const chart of charts) {
          expect(chart.width, chart.label).toBeGreaterThan(300);
          expect(chart.height, chart.label).toBeGreaterThan(40);
          expect(chart.marks, chart.label).toBeGreaterThanOrEqual(2);
          expect(chart.empty, chart.label).toBe(false);
        }
        // One column per day with calls in the spend chart: 40 simulated days.
        expect(charts[1]?.marks).toBeGreaterThanOrEqual(38);

        // The hostile endpoint is shown as text, and nothing in it ran or was fetched.
        const text = await tab.locator("body").innerText();
        expect(text).toContain(HOSTILE_ENDPOINT);
        expect(await tab.title()).toMatch(/^Zoo API spend, /);
        expect(await tab.$$eval("script, img, main svg:not(.chart)", (found) => found.length)).toBe(0);

        // The spend card: the view's exact total to the cent, the exact value in its note.
        const [total] = await queryDb(
          fixture.db,
          "SELECT sum(cost_usd)::VARCHAR AS cost, round(sum(cost_usd), 2)::VARCHAR AS cents FROM cost_per_day",
        );
        const grouped = (decimal: string) => decimal.replace(/\B(?=(\d{3})+(?!\d)\.)/g, ",");
        const card = await tab.locator(".card").first().innerText();
        expect(card).toContain(`$${grouped(String(total?.cents))}`);
        expect(card).toContain(grouped(String(total?.cost)));

        expect(outside).toEqual([]);
        expect(problems).toEqual([]);
      } finally {
        await tab.close();
      }
    });

    test("the monthly table holds every month of the data, exact, adding up to the total", async () => {
      const { tab } = await open(page, 1280);
      try {
        const rows = await tab.$$eval("section.months tbody tr", (trs) =>
          trs.map((tr) =>
            [...tr.querySelectorAll("td")].map((td) => [td.textContent ?? "", td.getAttribute("title")]),
          ),
        );
        const months = await queryDb(
          fixture.db,
          "SELECT strftime(month, '%Y-%m') AS month, calls, cost_usd::VARCHAR AS cost FROM cost_per_month ORDER BY month",
        );
        expect(months.length).toBeGreaterThanOrEqual(2);
        // Cents in the cell ("1,650.31", not "1,650.310000"), the exact sum on hover.
        expect(rows.slice(0, -1).map((row) => [row[0]?.[0], ...(row.at(-1) ?? [])])).toEqual(
          months.map((month) => [month.month, cents(String(month.cost)), `${String(month.cost)} USD`]),
        );
        expect(rows.at(-1)?.[0]?.[0]).toBe("total");
        for (const row of rows) expect(row.at(-1)?.[0]).toMatch(/^\d{1,3}(,\d{3})*\.\d{2}$/);
      } finally {
        await tab.close();
      }
    });

    test("the invoices and credits sections show the warehouse's reconciliation and balance", async () => {
      const { tab } = await open(page, 1280);
      try {
        const section = (title: string) =>
          tab.locator("section", { has: tab.locator("h2", { hasText: title }) });
        const cells = (title: string, index: number) =>
          section(title)
            .locator(".scroll > table")
            .nth(index)
            .locator("tbody tr")
            .evaluateAll((trs) =>
              trs.map((tr) => [...tr.querySelectorAll("td")].map((td) => td.textContent ?? "")),
            );
        const months = await queryDb(
          fixture.db,
          `SELECT strftime(month, '%Y-%m') AS month, invoiced_usage_usd::VARCHAR AS invoiced
           FROM monthly_reconciliation ORDER BY month`,
        );
        expect(months.length).toBeGreaterThanOrEqual(2);
        // Cents in the cell, the exact value on hover.
        const invoicedCells = section("Invoices against spend")
          .locator(".scroll > table")
          .nth(0)
          .locator("tbody tr td:nth-child(4)");
        expect(await invoicedCells.allTextContents()).toEqual(
          months.map((month) => cents(String(month.invoiced))),
        );
        expect(await invoicedCells.evaluateAll((tds) => tds.map((td) => td.getAttribute("title")))).toEqual(
          months.map((month) => `${String(month.invoiced)} USD`),
        );
        // The planted disagreement, to the cent.
        const open = await cells("Invoices against spend", 1);
        expect(open.map((row) => row[6])).toEqual(["+1.23"]);
        const [credits] = await queryDb(
          fixture.db,
          "SELECT remaining_usd::VARCHAR AS left FROM credit_runway",
        );
        expect(await section("API credits").locator(".card .v").getAttribute("title")).toBe(
          `${String(credits?.left)} USD`,
        );
      } finally {
        await tab.close();
      }
    });

    test("the operations section names the days of the operations it covers", async () => {
      const { tab } = await open(page, 400);
      try {
        const [window] = await queryDb(
          fixture.db,
          `SELECT strftime(timezone('UTC', min(created_at)), '%Y-%m-%d') AS first,
             strftime(timezone('UTC', max(created_at)), '%Y-%m-%d') AS last
           FROM operations_with_cost`,
        );
        expect(window?.first).toMatch(/^\d{4}-\d{2}-\d{2}$/);
        expect(window?.first).not.toBe(window?.last);
        const heading = await tab.locator("section.operations h2").innerText();
        expect(heading).toBe(
          `Spend by operation type and status, operations created ${window?.first} to ${window?.last}`,
        );
        const text = await tab.locator("section.operations").innerText();
        expect(text).not.toMatch(/whole history/i);
        expect(text).toContain("--operations-window");
      } finally {
        await tab.close();
      }
    });

    test.each(WIDTHS.flatMap((width) => [[width, "typical"] as const, [width, "large"] as const]))(
      "at %i px, %s amounts: no page overflow, every amount on screen, compact calls, newest days in view",
      async (width, amounts) => {
        const { tab, problems } = await open(amounts === "large" ? pageLarge : page, width);
        try {
          await mkdir(ARTIFACTS, { recursive: true });
          const name = amounts === "large" ? `report-${width}-large.png` : `report-${width}.png`;
          await tab.screenshot({ path: path.join(ARTIFACTS, name), fullPage: true });
          const layout = await measureLayout(tab);
          expect(layout.pageWidth, "the page never scrolls sideways").toBeLessThanOrEqual(
            layout.viewportWidth,
          );
          expect(layout.headlines.length).toBeGreaterThanOrEqual(5);
          for (const headline of layout.headlines) {
            expect(headline.height, `${headline.text} is one line`).toBeLessThan(headline.lineHeight * 1.5);
            expect(headline.overflow, `${headline.text} fits its card`).toBeLessThanOrEqual(0);
          }
          expect(layout.headlines[0]?.text).toMatch(/^\$\d{1,3}(,\d{3})*\.\d{2}$/);
          expect(layout.svgTexts).toBeGreaterThan(40);
          expect(layout.smallestSvgTextPx).toBeGreaterThanOrEqual(11);
          // Every chart and table lies inside the viewport's width; what is wider scrolls in its box.
          expect(layout.boxesOutside).toEqual([]);
          expect(layout.tables).toBeGreaterThanOrEqual(2);
          // The billing sections follow the same rules: their tables scroll in their own box (checked
          // above with every box), the credits left is a headline to the cent.
          for (const [title, tables] of [
            // The months, the lines that differ, and the books (charged, paid, still owed).
            ["Invoices against spend", 3],
            ["API credits", 1],
          ] as const) {
            const section = tab.locator("section", { has: tab.locator("h2", { hasText: title }) });
            expect(await section.locator(".scroll > table").count(), title).toBe(tables);
          }
          expect(layout.headlines.map((headline) => headline.text).at(-1)).toMatch(
            /^\$\d{1,3}(,\d{3})*\.\d{2}$/,
          );
          // Every amount of the page (cards, bars, table cells, sentences) is on screen whole, with
          // no sideways scroll: in the cards, the bars, or beside its label in a stacked row.
          const where = new Set(layout.money.map((amount) => amount.where));
          for (const section of ["cards", "Monthly spend", "Who spent it", "Invoices against spend"])
            expect(where, section).toContain(section);
          expect(layout.money.length).toBeGreaterThanOrEqual(40);
          expect(
            layout.money.filter((amount) => !amount.visible || !amount.inside || amount.cut),
            "amounts hidden, cut or past the screen's edge",
          ).toEqual([]);
          // Each to the cent (or under a cent), the exact value on hover rounding to it.
          for (const amount of layout.money) {
            expect(amount.text, amount.where).toMatch(
              /^[+-]?(\$?\d{1,3}(,\d{3})*\.\d{2}|<0\.01)( \(pending\)| USD)?$/,
            );
            const exact = /(-?\d+\.\d{6}) USD/.exec(amount.title)?.[1] ?? "";
            expect(amount.text, amount.title).toContain(cents(exact).replace(/^-/, ""));
          }
          // The most expensive calls take two lines at most, the hostile template's 120 characters
          // included (cut, whole on hover); all but that one take one line on a wide page.
          expect(layout.callRows.length).toBeGreaterThanOrEqual(5);
          const lines = (height: number) => Math.round((height - 10) / layout.callLineHeight);
          expect(layout.callRows.map(lines).filter((count) => count > 2)).toEqual([]);
          for (const height of layout.callRows) expect(height).toBeLessThanOrEqual(50);
          if (width > 400) expect(layout.callRows.filter((height) => lines(height) > 1).length).toBe(1);
          // On a phone the daily chart opens on its newest days, the oldest past the left edge; on a
          // wide page every day is in view.
          const columns = layout.dailyColumns;
          expect(columns.length).toBeGreaterThanOrEqual(38);
          const newest = columns.at(-1);
          expect(newest?.right).toBeLessThanOrEqual(width);
          expect(newest?.left).toBeGreaterThan(width / 2);
          if (width === 400) expect(columns[0]?.right).toBeLessThan(0);
          else expect(columns[0]?.left).toBeGreaterThan(0);
          // Its scale is in view at every width: the unit and at least three tick labels, whole.
          const scaleInView = layout.dailyScale.filter((tick) => tick.left >= 0 && tick.right <= width);
          expect(scaleInView.map((tick) => tick.text)).toContain("USD");
          expect(scaleInView.filter((tick) => /^\d/.test(tick.text)).length).toBeGreaterThanOrEqual(3);
          expect(problems).toEqual([]);
        } finally {
          await tab.close();
        }
      },
    );

    test("email addresses appear only with --show-email", async () => {
      expect(emails).toContain(HOSTILE_EMAIL);
      for (const [file, shown] of [
        [page, false],
        [pageWithEmail, true],
      ] as const) {
        const { tab, problems } = await open(file, 400);
        try {
          const markup = await tab.content();
          const text = await tab.locator("body").innerText();
          const present = emails.filter((email) => text.includes(email));
          if (shown) {
            // Shown as text, escaped: nothing in it ran.
            expect(present).toContain(HOSTILE_EMAIL);
            expect(await tab.locator("th", { hasText: "email" }).count()).toBe(1);
            await tab.screenshot({ path: path.join(ARTIFACTS, "report-400-email.png"), fullPage: true });
            const layout = await measureLayout(tab);
            expect(layout.pageWidth).toBeLessThanOrEqual(400);
            // The email takes a third line of its own on a phone.
            for (const height of layout.callRows)
              expect(height).toBeLessThanOrEqual(3 * layout.callLineHeight + 12);
          } else {
            expect(present).toEqual([]);
            expect(
              emails.filter((email) => markup.includes(email) || markup.includes(email.split("@")[0] ?? "")),
            ).toEqual([]);
            expect(markup).not.toMatch(/@example\.com|"email"|>email</);
            expect(text).toContain("--show-email");
          }
          expect(problems).toEqual([]);
        } finally {
          await tab.close();
        }
      }
    });
  });
});
