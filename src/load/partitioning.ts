/**
 * Hive partitioning of the Parquet datasets by the UTC month or day of `created_at`.
 * Partition values are computed by DuckDB with these strftime formats, so SQL and file paths agree.
 */
export type Partitioning = "month" | "day";
export const PARTITIONINGS: readonly Partitioning[] = ["month", "day"];

export const PARTITION_FORMAT: Record<Partitioning, string> = { month: "%Y-%m", day: "%Y-%m-%d" };
export const PARTITION_COLUMN: Record<Partitioning, string> = { month: "created_month", day: "created_day" };

/** The partition value of a time (RFC 3339, any offset): its UTC month or day, as PARTITION_FORMAT. */
export function partitionOf(partitioning: Partitioning, time: string): string {
  const utc = utcText(parseTime(time));
  const date = utc.slice(0, utc.indexOf("T"));
  return partitioning === "month" ? date.slice(0, -3) : date;
}

/** The half-open UTC interval [start, end) a partition value covers. */
export function partitionRange(partitioning: Partitioning, value: string): { start: string; end: string } {
  const match = /^(\d{4,})-(\d{2})(?:-(\d{2}))?$/.exec(value);
  if (match === null) throw new Error(`not a ${partitioning} partition value: ${value}`);
  const [year, month, day] = [Number(match[1]), Number(match[2]) - 1, Number(match[3] ?? 1)];
  const start = utcDate(year, month, day);
  const end = partitioning === "month" ? utcDate(year, month + 1, 1) : utcDate(year, month, day + 1);
  return { start: utcText(start), end: utcText(end) };
}

/**
 * Orders partition values in time. As text, "10000-01" sorts before "9999-12": DuckDB's strftime
 * writes a year past 9999 with five digits, which a warehouse of an older version may hold.
 */
export function comparePartitions(a: string, b: string): number {
  if (a.length !== b.length) return a.length - b.length;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Every partition value from first to last, both included, in order (values as PARTITION_FORMAT). */
export function* partitionsBetween(
  partitioning: Partitioning,
  first: string,
  last: string,
): Generator<string> {
  for (
    let value = first;
    comparePartitions(value, last) <= 0;
    value = partitionOf(partitioning, partitionRange(partitioning, value).end)
  ) {
    yield value;
  }
}

/** Date.parse, also of the five-digit years utcText writes (ISO 8601 wants "+010000" there). */
function parseTime(time: string): number {
  const yearEnd = time.indexOf("-");
  if (yearEnd <= 4) return Date.parse(time);
  return Date.parse(`+${time.slice(0, yearEnd).padStart(6, "0")}${time.slice(yearEnd)}`);
}

/** Milliseconds since the epoch at a UTC date; Date.UTC would read years 0-99 as 1900-1999. */
function utcDate(year: number, month: number, day: number): number {
  const date = new Date(0);
  date.setUTCFullYear(year, month, day);
  return date.getTime();
}

/**
 * An instant as ISO 8601 UTC text DuckDB reads: toISOString writes years past 9999 as "+010000",
 * which DuckDB refuses, so the sign and the padding go.
 */
function utcText(ms: number): string {
  const iso = new Date(ms).toISOString();
  return iso.startsWith("+") ? iso.slice(1).replace(/^0+(?=\d{5,}-)/, "") : iso;
}
