/** A history size as the tables print it: 200k, 1M. */
export function callsLabel(calls) {
  if (calls >= 1_000_000 && calls % 100_000 === 0) return `${calls / 1_000_000}M`;
  if (calls >= 1_000 && calls % 1_000 === 0) return `${calls / 1_000}k`;
  return String(calls);
}
