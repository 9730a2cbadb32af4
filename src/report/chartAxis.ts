/** Axis helpers shared by the SVG charts: round tick steps and compact tick labels. */

/** Ticks from 0 to at least `max`, about `count` of them, on a 1-2-5 step. */
export function niceTicks(max: number, count = 5): number[] {
  if (!(max > 0)) return [0, 1];
  const rough = max / count;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = ([1, 2, 2.5, 5, 10].find((factor) => factor * power >= rough) ?? 10) * power;
  const ticks: number[] = [];
  for (let i = 0; i * step < max + step / 2 && ticks.length <= count * 3; i++) ticks.push(i * step);
  if ((ticks[ticks.length - 1] ?? 0) < max) ticks.push(ticks.length * step);
  return ticks;
}

/** A tick label: 1.5k, 12k, 2.5M, 2B; small values keep enough decimals to differ. */
export function tickLabel(value: number): string {
  const abs = Math.abs(value);
  if (abs >= 1e9) return `${trim(value / 1e9)}B`;
  if (abs >= 1e6) return `${trim(value / 1e6)}M`;
  if (abs >= 1e3) return `${trim(value / 1e3)}k`;
  return trim(value);
}

function trim(value: number): string {
  return Number(value.toPrecision(3)).toString();
}

/** Every how many categories an x label fits, given the room per category. */
export function labelEvery(categories: number, band: number, labelWidth: number): number {
  if (categories === 0) return 1;
  return Math.max(1, Math.ceil(labelWidth / Math.max(band, 0.0001)));
}

/** Cuts a label to a length, with an ellipsis, for a fixed label column. */
export function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
