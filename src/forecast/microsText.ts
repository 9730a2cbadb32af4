/** Whole micro-dollars as exact decimal text with 6 places: 1234567 -> "1.234567". */
export function microsText(micros: number): string {
  const sign = micros < 0 ? "-" : "";
  const digits = String(Math.abs(Math.round(micros))).padStart(7, "0");
  return `${sign}${digits.slice(0, -6)}.${digits.slice(-6)}`;
}

/** Exact decimal text (at most 6 places) as whole micro-dollars; throws on anything else. */
export function textMicros(text: string): number {
  const match = /^(-?)(\d+)(?:\.(\d{1,6}))?$/.exec(text);
  if (match === null)
    throw new RangeError(`not a decimal amount with at most 6 places: ${JSON.stringify(text)}`);
  const [, sign, integer = "0", fraction = ""] = match;
  const micros = Number(integer) * 1_000_000 + Number(fraction.padEnd(6, "0"));
  return sign === "-" ? -micros : micros;
}
