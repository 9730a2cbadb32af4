/**
 * The one text form of an instant in every command's output (export summary, report, operation
 * get): ISO 8601 in UTC with microseconds and `Z`, as in 2026-10-19T21:10:16.416487Z. DuckDB prints
 * a TIMESTAMPTZ cast to VARCHAR as "2026-10-19 21:10:16.416487+00", so stored instants are
 * formatted in SQL (`isoTimeSql`, or the same strftime format in sql/report/); instants of
 * the run's own clock are formatted here (`isoTime`). Both give the same shape.
 */
export const ISO_TIME_FORMAT = "%Y-%m-%dT%H:%M:%S.%fZ";

/** SQL text formatting a TIMESTAMPTZ expression as ISO_TIME_FORMAT, in UTC whatever the session zone. */
export function isoTimeSql(expression: string): string {
  return `strftime(timezone('UTC', ${expression}), '${ISO_TIME_FORMAT}')`;
}

/** A JS instant as ISO_TIME_FORMAT: its milliseconds padded to microseconds, as DuckDB prints them. */
export function isoTime(instant: Date): string {
  return instant.toISOString().replace(/\.(\d{3})Z$/, ".$1000Z");
}
