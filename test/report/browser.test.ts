import { mkdir } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { REPO_ROOT, runCli } from "../helpers/cli.js";
import { queryDb } from "../helpers/exportHarness.js";
import { CHROMIUM, chromiumInstalled, launchChromium } from "./chromium.js";
import { buildWarehouse, editDb, OPERATION_VIEW_FIXTURES } from "./fixtures.js";

const SCREENSHOT = path.join(REPO_ROOT, "test-artifacts", "report.png");
/** Markup that would run, fetch or break the page if any data reached it unescaped. */
const HOSTILE_ENDPOINT = `/x/</title><script>document.title='pwned'</script><img src="http://zoo-usage.invalid/e.png">`;
const HOSTILE_EMAIL = `"><svg onload="document.title='pwned'"></svg><b>@example.com`;

const installed = chromiumInstalled();
if (!installed) {
  console.warn(
    `\n*** ${CHROMIUM} is missing: the HTML report was NOT checked in a browser. ` +
      "Install Debian's chromium (apt-get install chromium); .ci/run does. ***\n",
  );
}

describe("the HTML report in headless Chromium", () => {
  // In CI a missing browser is a failure, never a silent skip.
  test.runIf(!installed && Boolean(process.env.CI))("Chromium is installed (required in CI)", () => {
    expect.fail(`${CHROMIUM} is missing; .ci/run should have installed Debian's chromium`);
  });

  describe.skipIf(!installed)("rendered as a user sees it", () => {
    let fixture: Awaited<ReturnType<typeof buildWarehouse>>;
    let page: string;

    beforeAll(async () => {
      fixture = await buildWarehouse({ seed: 13, calls: 3000, days: 40 });
      await editDb(fixture.db, [
        ...OPERATION_VIEW_FIXTURES,
        // The most expensive call, so it is in the table and its template in the top endpoints.
        `UPDATE api_calls SET endpoint_template = '${HOSTILE_ENDPOINT.replaceAll("'", "''")}',
           email = '${HOSTILE_EMAIL.replaceAll("'", "''")}'
         WHERE id = (SELECT id FROM api_calls ORDER BY price_usd DESC NULLS LAST LIMIT 1)`,
      ]);
      page = path.join(fixture.dir, "report.html");
      const result = await runCli(["report", "--db", fixture.db, "--html", page]);
      if (result.code !== 0) throw new Error(`report failed: ${result.stderr}`);
    });
    afterAll(() => fixture.cleanup());

    test("every chart rendered, no console error, no request leaves the file, data shown as text", async () => {
      const browser = await launchChromium({ width: 1200, height: 900 });
      try {
        const outside: string[] = [];
        const problems: string[] = [];
        await browser.context.route("**/*", (route) => {
          const url = route.request().url();
          if (url.startsWith("file:")) return route.continue();
          outside.push(url);
          return route.abort();
        });
        const tab = await browser.context.newPage();
        tab.on("console", (message) => {
          if (message.type() === "error" || message.type() === "warning") problems.push(message.text());
        });
        tab.on("pageerror", (error) => problems.push(error.message));
        tab.on("dialog", (dialog) => {
          problems.push(`dialog: ${dialog.message()}`);
          void dialog.dismiss();
        });
        await tab.goto(pathToFileURL(page).href, { waitUntil: "load" });

        const charts = await tab.$$eval("svg.chart", (svgs) =>
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
          "Spend per UTC day, USD",
          "Calls per UTC day, failures (status ≥ 400) on top",
          "Spend by endpoint template, USD",
          "Spend by async operation type and status, USD",
        ]);
        for (const chart of charts) {
          expect(chart.width, chart.label).toBeGreaterThan(400);
          expect(chart.height, chart.label).toBeGreaterThan(40);
          expect(chart.marks, chart.label).toBeGreaterThan(2);
          expect(chart.empty, chart.label).toBe(false);
        }
        // One column per day with calls in the spend chart: 40 simulated days.
        expect(charts[0]?.marks).toBeGreaterThanOrEqual(38);

        // The hostile strings are shown as text, and nothing in them ran or was fetched.
        const text = await tab.locator("body").innerText();
        expect(text).toContain(HOSTILE_ENDPOINT);
        expect(text).toContain(HOSTILE_EMAIL);
        expect(await tab.title()).toMatch(/^Zoo API spend, /);
        expect(await tab.$$eval("script, img, main svg:not(.chart)", (found) => found.length)).toBe(0);

        // The spend card is the view's exact total.
        const [total] = await queryDb(fixture.db, "SELECT sum(cost_usd)::VARCHAR AS cost FROM cost_per_day");
        const grouped = String(total?.cost).replace(/\B(?=(\d{3})+(?!\d)\.)/g, ",");
        expect(await tab.locator(".card").first().innerText()).toContain(grouped);

        expect(outside).toEqual([]);
        expect(problems).toEqual([]);
        await mkdir(path.dirname(SCREENSHOT), { recursive: true });
        await tab.screenshot({ path: SCREENSHOT, fullPage: true });
      } finally {
        await browser.close();
      }
    });
  });
});
