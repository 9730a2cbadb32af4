/** Eight block heights; an empty day is a low dot so that it reads as "nothing", not as "a little". */
const BLOCKS = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"] as const;
const NOTHING = "·";

/**
 * One character per value, scaled to the largest. Any value above zero gets at least the lowest
 * block, so a day with spend never looks like a day without.
 */
export function sparkline(values: readonly number[]): string {
  const max = Math.max(0, ...values);
  return values
    .map((value) => {
      if (!(value > 0) || max === 0) return NOTHING;
      const index = Math.min(BLOCKS.length - 1, Math.ceil((value / max) * BLOCKS.length) - 1);
      return BLOCKS[Math.max(0, index)];
    })
    .join("");
}
