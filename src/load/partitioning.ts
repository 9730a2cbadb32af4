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
  const utc = new Date(Date.parse(time)).toISOString();
  return partitioning === "month" ? utc.slice(0, 7) : utc.slice(0, 10);
}

/** The half-open UTC interval [start, end) a partition value covers. */
export function partitionRange(partitioning: Partitioning, value: string): { start: string; end: string } {
  const match = /^(\d{4})-(\d{2})(?:-(\d{2}))?$/.exec(value);
  if (match === null) throw new Error(`not a ${partitioning} partition value: ${value}`);
  const [year, month, day] = [Number(match[1]), Number(match[2]) - 1, Number(match[3] ?? 1)];
  const start = new Date(Date.UTC(year, month, day));
  const end =
    partitioning === "month"
      ? new Date(Date.UTC(year, month + 1, 1))
      : new Date(Date.UTC(year, month, day + 1));
  return { start: start.toISOString(), end: end.toISOString() };
}

/** Every partition value from first to last, both included, in order (values as PARTITION_FORMAT). */
export function* partitionsBetween(
  partitioning: Partitioning,
  first: string,
  last: string,
): Generator<string> {
  for (
    let value = first;
    value <= last;
    value = partitionOf(partitioning, partitionRange(partitioning, value).end)
  ) {
    yield value;
  }
}
