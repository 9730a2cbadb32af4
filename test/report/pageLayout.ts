import type { Page } from "playwright-core";

/** What a reader sees of the page's layout, measured in the browser after layout and scaling. */
export interface PageLayout {
  viewportWidth: number;
  /** document.documentElement.scrollWidth: wider than the viewport means the page scrolls sideways. */
  pageWidth: number;
  /** The headline figures (the cards' values): their box, line height and any overflow of the card. */
  headlines: { text: string; height: number; lineHeight: number; overflow: number }[];
  svgTexts: number;
  /** The smallest SVG text as drawn: its font size times the SVG's scale on screen. */
  smallestSvgTextPx: number;
  tables: number;
  /** Scroll containers (charts, tables) whose box reaches past the viewport. */
  boxesOutside: string[];
  /** Every amount (data-money): its text, whether it shows whole on screen, and where it is. */
  money: { text: string; title: string; visible: boolean; inside: boolean; cut: boolean; where: string }[];
  /** The height of each row of the most expensive calls, and of one line of its text. */
  callRows: number[];
  callLineHeight: number;
  /** The daily spend chart's columns as drawn, oldest first: the day and its box. */
  dailyColumns: { day: string; left: number; right: number }[];
  /** The daily spend chart's scale (tick labels and unit) as drawn: each text and its box. */
  dailyScale: { text: string; left: number; right: number }[];
}

/** The few browser globals the measurement uses: the test project is typed without the DOM lib. */
interface Box {
  left: number;
  right: number;
  height: number;
}
interface Node {
  getBoundingClientRect(): Box;
  scrollWidth: number;
  clientWidth: number;
  closest(selector: string): Node | null;
  getScreenCTM?(): { a: number; b: number } | null;
  querySelector(selector: string): Node | null;
  getAttribute(name: string): string | null;
  textContent: string | null;
  innerText: string;
  parentElement: Node | null;
}
interface Browser {
  innerWidth: number;
  document: {
    documentElement: { scrollWidth: number };
    querySelectorAll(selector: string): Iterable<Node> & ArrayLike<Node>;
  };
  getComputedStyle(node: Node): { lineHeight: string; paddingRight: string; fontSize: string };
}

export async function measureLayout(tab: Page): Promise<PageLayout> {
  return tab.evaluate(() => {
    const { innerWidth, document, getComputedStyle } = globalThis as unknown as Browser;
    const px = (value: string) => Number.parseFloat(value);
    const headlines = [...document.querySelectorAll(".card .v")].map((value) => {
      const box = value.getBoundingClientRect();
      const card = value.parentElement as Node;
      const style = getComputedStyle(value);
      return {
        text: value.textContent ?? "",
        height: box.height,
        lineHeight: px(style.lineHeight),
        // The value's right edge past the card's content box.
        overflow: box.right - (card.getBoundingClientRect().right - px(getComputedStyle(card).paddingRight)),
      };
    });
    const sizes = [...document.querySelectorAll("svg text")].map((text) => {
      const matrix = text.getScreenCTM?.() ?? null;
      const scale = matrix === null ? 0 : Math.hypot(matrix.a, matrix.b);
      return px(getComputedStyle(text).fontSize) * scale;
    });
    const boxesOutside = [...document.querySelectorAll(".scroll")]
      .filter(
        (box) => box.getBoundingClientRect().right > innerWidth + 0.5 || box.getBoundingClientRect().left < 0,
      )
      .map(
        (box) => box.innerText.slice(0, 40) || (box.querySelector("svg")?.getAttribute("aria-label") ?? "?"),
      );
    const money = [...document.querySelectorAll("[data-money]")].map((node) => {
      const box = node.getBoundingClientRect();
      const heading = node.closest("section")?.querySelector("h2")?.textContent ?? "cards";
      return {
        text: node.textContent ?? "",
        title: node.getAttribute("title") ?? "",
        visible: box.height > 0 && box.right - box.left > 0,
        inside: box.left >= -0.5 && box.right <= innerWidth + 0.5,
        // A box narrower than its text (an ellipsis, a clipped cell) hides part of the amount.
        cut: node.scrollWidth > node.clientWidth + 1,
        where: heading,
      };
    });
    const callTable = [...document.querySelectorAll("table.compact")][0];
    const callRows = [...document.querySelectorAll("table.compact tbody tr")].map(
      (row) => row.getBoundingClientRect().height,
    );
    const dailyChart = [...document.querySelectorAll("svg.chart")].find(
      (svg) => svg.getAttribute("aria-label") === "Spend per UTC day, USD",
    );
    const dailyColumns =
      dailyChart === undefined
        ? []
        : [...(dailyChart as unknown as Browser["document"]).querySelectorAll("rect.mark")].map((rect) => {
            const box = rect.getBoundingClientRect();
            return {
              day: (rect.querySelector("title")?.textContent ?? "").slice(0, 10),
              left: box.left,
              right: box.right,
            };
          });
    const dailyScale =
      dailyChart === undefined
        ? []
        : [...(dailyChart as unknown as Browser["document"]).querySelectorAll("text.tick")].map((text) => {
            const box = text.getBoundingClientRect();
            return { text: text.textContent ?? "", left: box.left, right: box.right };
          });
    return {
      money,
      callRows,
      callLineHeight: callTable === undefined ? 0 : px(getComputedStyle(callTable).lineHeight),
      dailyColumns,
      dailyScale,
      viewportWidth: innerWidth,
      pageWidth: document.documentElement.scrollWidth,
      headlines,
      svgTexts: sizes.length,
      smallestSvgTextPx: Math.min(...sizes),
      tables: document.querySelectorAll(".scroll > table").length,
      boxesOutside,
    };
  });
}
