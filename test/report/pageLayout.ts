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
}

export async function measureLayout(tab: Page): Promise<PageLayout> {
  return tab.evaluate(() => {
    const viewportWidth = window.innerWidth;
    const headlines = [...document.querySelectorAll<HTMLElement>(".card .v")].map((value) => {
      const box = value.getBoundingClientRect();
      const card = value.parentElement as HTMLElement;
      return {
        text: value.textContent ?? "",
        height: box.height,
        lineHeight: Number.parseFloat(getComputedStyle(value).lineHeight),
        // The value's right edge past the card's content box.
        overflow:
          box.right -
          (card.getBoundingClientRect().right - Number.parseFloat(getComputedStyle(card).paddingRight)),
      };
    });
    const sizes = [...document.querySelectorAll<SVGTextElement>("svg text")].map((text) => {
      const matrix = text.getScreenCTM();
      const scale = matrix === null ? 0 : Math.hypot(matrix.a, matrix.b);
      return Number.parseFloat(getComputedStyle(text).fontSize) * scale;
    });
    const boxesOutside = [...document.querySelectorAll<HTMLElement>(".scroll")]
      .filter(
        (box) =>
          box.getBoundingClientRect().right > viewportWidth + 0.5 || box.getBoundingClientRect().left < 0,
      )
      .map(
        (box) => box.innerText.slice(0, 40) || (box.querySelector("svg")?.getAttribute("aria-label") ?? "?"),
      );
    return {
      viewportWidth,
      pageWidth: document.documentElement.scrollWidth,
      headlines,
      svgTexts: sizes.length,
      smallestSvgTextPx: Math.min(...sizes),
      tables: document.querySelectorAll(".scroll > table").length,
      boxesOutside,
    };
  });
}
