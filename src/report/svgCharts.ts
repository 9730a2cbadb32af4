import { labelEvery, niceTicks, tickLabel } from "./chartAxis.js";
import { escapeHtml as esc } from "./escapeHtml.js";

/**
 * Inline SVG charts, built as text: no script, no font or file to fetch, so the page renders the
 * same offline. Every plotted element has class "mark" and a <title> with the exact figure (the
 * browser shows it on hover); geometry uses floats, the text never does.
 */
export interface Series {
  name: string;
  color: string;
  values: number[];
  /** Exact text per value for the tooltip (e.g. "12.345678 USD"). */
  texts: string[];
}

export interface ColumnChartOptions {
  title: string;
  /** One column each: UTC days `YYYY-MM-DD` or months `YYYY-MM`, named in the tooltips. */
  columns: string[];
  /** Stacked bottom to top in this order. */
  series: Series[];
  unit: string;
  /** The x label of a column; by default a day's `MM-DD`, in full for the first and for each 1 January. */
  label?: (column: string, index: number) => string;
  /** Room an x label needs, in SVG units: labels are skipped to keep this much between them. */
  labelWidth?: number;
  width?: number;
  height?: number;
  /** Drawn as a line over the columns (a forecast); NaN leaves a column without a point. */
  line?: Series | undefined;
}

/** Text size in SVG units. */
const FONT_SIZE = 12;
/** The smallest rendered text size: a chart is never shrunk below it (its container scrolls). */
const MIN_TEXT_PX = 11;
/** The largest: a small chart in a wide page is not blown up past it. */
const MAX_TEXT_PX = 13;
const FONT = `font-family="system-ui, -apple-system, Segoe UI, Roboto, sans-serif" font-size="${FONT_SIZE}"`;
const MUTED = "#5f6b7a";
const GRID = "#e3e8ef";

/** Columns over UTC days (stacked when there are several series), with a y axis and day labels. */
export function columnChart(options: ColumnChartOptions): string {
  const width = options.width ?? 960;
  const height = options.height ?? 250;
  // The scale is drawn on both sides: a narrow screen opens the chart's scroll box on its right end
  // (the newest days, htmlStyle.ts), where the left one is out of view.
  const margin = { top: 22, right: 46, bottom: 26, left: 58 };
  const plotWidth = width - margin.left - margin.right;
  const plotHeight = height - margin.top - margin.bottom;
  const count = options.columns.length;
  const totals = options.columns.map((_, i) =>
    options.series.reduce((sum, s) => sum + (s.values[i] ?? 0), 0),
  );
  const lineValues = (options.line?.values ?? []).filter((value) => Number.isFinite(value));
  if (count === 0 || ![...totals, ...lineValues].some((total) => total > 0)) {
    return emptyChart(options.title, width, height);
  }

  const ticks = niceTicks(Math.max(...totals, ...lineValues));
  const top = ticks[ticks.length - 1] ?? 1;
  const y = (value: number) => margin.top + plotHeight - (value / top) * plotHeight;
  const band = plotWidth / count;
  const barWidth = Math.max(1, band * (band > 6 ? 0.78 : 0.92));
  const parts: string[] = [];

  for (const tick of ticks) {
    const ty = y(tick).toFixed(1);
    parts.push(
      `<line x1="${margin.left}" x2="${width - margin.right}" y1="${ty}" y2="${ty}" stroke="${GRID}"/>`,
      `<text class="tick" x="${margin.left - 6}" y="${ty}" dy="0.32em" text-anchor="end" fill="${MUTED}">${esc(tickLabel(tick))}</text>`,
      `<text class="tick" x="${width - margin.right + 6}" y="${ty}" dy="0.32em" fill="${MUTED}">${esc(tickLabel(tick))}</text>`,
    );
  }
  options.columns.forEach((column, i) => {
    const x = (margin.left + i * band + (band - barWidth) / 2).toFixed(2);
    let base = 0;
    for (const series of options.series) {
      const value = series.values[i] ?? 0;
      if (value > 0) {
        const y0 = y(base);
        const y1 = y(base + value);
        // A value above zero stays visible: at least half a pixel high.
        const h = Math.max(0.5, y0 - y1);
        parts.push(
          `<rect class="mark" x="${x}" y="${(y0 - h).toFixed(2)}" width="${barWidth.toFixed(2)}" height="${h.toFixed(2)}" fill="${series.color}">` +
            `<title>${esc(`${column} ${series.name}: ${series.texts[i] ?? ""}`)}</title></rect>`,
        );
      }
      base += value;
    }
  });
  if (options.line !== undefined)
    parts.push(...linePoints(options.line, options.columns, band, margin.left, y));
  const every = labelEvery(count, band, options.labelWidth ?? 64);
  const label = options.label ?? dayLabel;
  options.columns.forEach((column, i) => {
    if (i % every !== 0) return;
    const x = (margin.left + i * band + band / 2).toFixed(1);
    const text = label(column, i);
    parts.push(`<text x="${x}" y="${height - 8}" text-anchor="middle" fill="${MUTED}">${esc(text)}</text>`);
  });
  parts.push(
    `<line x1="${margin.left}" x2="${width - margin.right}" y1="${y(0).toFixed(1)}" y2="${y(0).toFixed(1)}" stroke="${MUTED}"/>`,
    `<text class="tick" x="${margin.left - 6}" y="${margin.top - 12}" text-anchor="end" fill="${MUTED}">${esc(options.unit)}</text>`,
    `<text class="tick" x="${width - margin.right + 6}" y="${margin.top - 12}" fill="${MUTED}">${esc(options.unit)}</text>`,
  );
  return frame(options.title, width, height, parts);
}

/** A dashed line through the column centres that have a value, each point with its exact text. */
function linePoints(
  line: Series,
  columns: string[],
  band: number,
  left: number,
  y: (value: number) => number,
): string[] {
  const points = columns.flatMap((column, i) => {
    const value = line.values[i] ?? Number.NaN;
    if (!Number.isFinite(value)) return [];
    return [{ x: (left + i * band + band / 2).toFixed(1), y: y(value).toFixed(1), column, i }];
  });
  return [
    `<polyline fill="none" stroke="${line.color}" stroke-width="2" stroke-dasharray="5 3" points="${points.map((p) => `${p.x},${p.y}`).join(" ")}"/>`,
    ...points.map(
      (p) =>
        `<circle class="mark" cx="${p.x}" cy="${p.y}" r="3" fill="${line.color}"><title>${esc(`${p.column} ${line.name}: ${line.texts[p.i] ?? ""}`)}</title></circle>`,
    ),
  ];
}

function dayLabel(day: string, index: number): string {
  return index === 0 || day.endsWith("-01-01") ? day : day.slice(5);
}

/**
 * The chart fills its container's width, but never narrower than keeps its text MIN_TEXT_PX high
 * (a narrow screen scrolls the chart inside its container instead of shrinking the text), nor wider
 * than MAX_TEXT_PX allows. The container (class "scroll") scrolls sideways, never the page.
 */
function frame(title: string, width: number, height: number, parts: string[]): string {
  // Two pixels over: layout rounds widths to fractions of a pixel.
  const minWidth = Math.ceil((width * MIN_TEXT_PX) / FONT_SIZE) + 2;
  const maxWidth = Math.floor((width * MAX_TEXT_PX) / FONT_SIZE);
  return (
    `<div class="scroll chart-box"><svg xmlns="http://www.w3.org/2000/svg" class="chart" role="img" aria-label="${esc(title)}" ` +
    `viewBox="0 0 ${width} ${height}" width="100%" style="min-width:${minWidth}px;max-width:${maxWidth}px" ` +
    `preserveAspectRatio="xMinYMin meet" ${FONT}>` +
    `<title>${esc(title)}</title>${parts.join("")}</svg></div>`
  );
}

/** Said plainly rather than drawn as an empty frame. */
function emptyChart(title: string, width: number, height: number): string {
  return frame(title, width, height, [
    `<text class="empty" x="${width / 2}" y="${height / 2}" text-anchor="middle" fill="${MUTED}">no data in this period</text>`,
  ]);
}
