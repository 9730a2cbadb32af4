/**
 * Robust statistics for the forecast: one outlier day moves neither a median nor a MAD, and a
 * winsorised mean only as far as its clip. Pure functions on binary floats: they estimate a rate,
 * they never hold money.
 */

/** The median (the mean of the two middle values for an even count); NaN for none. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** The median absolute deviation scaled to a normal's standard deviation (x 1.4826). */
export function robustSd(values: readonly number[]): number {
  const center = median(values);
  return 1.4826 * median(values.map((v) => Math.abs(v - center)));
}

/**
 * The mean of the values clipped to median +- `clip` robust standard deviations: close to the mean
 * on ordinary days (a mean, not a median, so a skewed day-to-day noise is not under-counted), yet a
 * single day five times the usual moves it by a fraction of a standard deviation only.
 */
export function winsorisedMean(values: readonly number[], clip = 2.5): number {
  if (values.length === 0) return Number.NaN;
  const center = median(values);
  const spread = clip * robustSd(values);
  const clipped = values.map((v) => Math.min(center + spread, Math.max(center - spread, v)));
  return clipped.reduce((a, b) => a + b, 0) / clipped.length;
}
