import { clip, labelEvery, niceTicks, tickLabel } from "./chartAxis.js";
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
  /** UTC days `YYYY-MM-DD`, one column each. */
  days: string[];
  /** Stacked bottom to top in this order. */
  series: Series[];
  unit: string;
  width?: number;
  height?: number;
}

const FONT = 'font-family="system-ui, -apple-system, Segoe UI, Roboto, sans-serif" font-size="11"';
const MUTED = "#5f6b7a";
const GRID = "#e3e8ef";

/** Columns over UTC days (stacked when there are several series), with a y axis and day labels. */
export function columnChart(options: ColumnChartOptions): string {
  const width = options.width ?? 960;
  const height = options.height ?? 250;
  const margin = { top: 22, right: 12, bottom: 26, left: 58 };
  const plotWidth = width - margin.left - margin.right;
  const plotHeight = height - margin.top - margin.bottom;
  const count = options.days.length;
  const totals = options.days.map((_, i) => options.series.reduce((sum, s) => sum + (s.values[i] ?? 0), 0));
  if (count === 0 || !totals.some((total) => total > 0)) return emptyChart(options.title, width, height);

  const ticks = niceTicks(Math.max(...totals));
  const top = ticks[ticks.length - 1] ?? 1;
  const y = (value: number) => margin.top + plotHeight - (value / top) * plotHeight;
  const band = plotWidth / count;
  const barWidth = Math.max(1, band * (band > 6 ? 0.78 : 0.92));
  const parts: string[] = [];

  for (const tick of ticks) {
    const ty = y(tick).toFixed(1);
    parts.push(
      `<line x1="${margin.left}" x2="${width - margin.right}" y1="${ty}" y2="${ty}" stroke="${GRID}"/>`,
      `<text x="${margin.left - 6}" y="${ty}" dy="0.32em" text-anchor="end" fill="${MUTED}">${esc(tickLabel(tick))}</text>`,
    );
  }
  options.days.forEach((day, i) => {
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
            `<title>${esc(`${day} ${series.name}: ${series.texts[i] ?? ""}`)}</title></rect>`,
        );
      }
      base += value;
    }
  });
  const every = labelEvery(count, band, 64);
  options.days.forEach((day, i) => {
    if (i % every !== 0) return;
    const x = (margin.left + i * band + band / 2).toFixed(1);
    const text = i === 0 || day.endsWith("-01-01") ? day : day.slice(5);
    parts.push(`<text x="${x}" y="${height - 8}" text-anchor="middle" fill="${MUTED}">${esc(text)}</text>`);
  });
  parts.push(
    `<line x1="${margin.left}" x2="${width - margin.right}" y1="${y(0).toFixed(1)}" y2="${y(0).toFixed(1)}" stroke="${MUTED}"/>`,
    `<text x="${margin.left - 6}" y="${margin.top - 12}" text-anchor="end" fill="${MUTED}">${esc(options.unit)}</text>`,
  );
  return frame(options.title, width, height, parts);
}

export interface BarRow {
  label: string;
  value: number;
  /** Exact text shown at the end of the bar. */
  text: string;
  color: string;
  /** The tooltip: the full label and the exact figures. */
  title: string;
}

/** Horizontal bars, one row each, largest first as given; labels in a fixed column. */
export function barChart(options: {
  title: string;
  rows: BarRow[];
  width?: number;
  labelChars?: number;
}): string {
  const width = options.width ?? 960;
  const labelChars = options.labelChars ?? 48;
  const rowHeight = 24;
  const margin = { top: 6, right: 150, bottom: 6, left: Math.round(labelChars * 6.4) + 12 };
  const height = margin.top + margin.bottom + rowHeight * Math.max(1, options.rows.length);
  const max = Math.max(0, ...options.rows.map((row) => row.value));
  if (options.rows.length === 0 || max <= 0) return emptyChart(options.title, width, 60);
  const plotWidth = width - margin.left - margin.right;
  const parts = options.rows.map((row, i) => {
    const top = margin.top + i * rowHeight;
    const barWidth = row.value > 0 ? Math.max(1, (row.value / max) * plotWidth) : 0;
    const mid = (top + rowHeight / 2).toFixed(1);
    return (
      `<g><title>${esc(row.title)}</title>` +
      `<text x="${margin.left - 8}" y="${mid}" dy="0.32em" text-anchor="end" fill="#1f2933">${esc(clip(row.label, labelChars))}</text>` +
      `<rect class="mark" x="${margin.left}" y="${top + 4}" width="${barWidth.toFixed(2)}" height="${rowHeight - 8}" rx="2" fill="${row.color}"/>` +
      `<text x="${(margin.left + barWidth + 6).toFixed(1)}" y="${mid}" dy="0.32em" fill="${MUTED}">${esc(row.text)}</text></g>`
    );
  });
  return frame(options.title, width, height, parts);
}

function frame(title: string, width: number, height: number, parts: string[]): string {
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" class="chart" role="img" aria-label="${esc(title)}" ` +
    `viewBox="0 0 ${width} ${height}" width="100%" preserveAspectRatio="xMinYMin meet" ${FONT}>` +
    `<title>${esc(title)}</title>${parts.join("")}</svg>`
  );
}

/** Said plainly rather than drawn as an empty frame. */
function emptyChart(title: string, width: number, height: number): string {
  return frame(title, width, height, [
    `<text class="empty" x="${width / 2}" y="${height / 2}" text-anchor="middle" fill="${MUTED}">no data in this period</text>`,
  ]);
}
