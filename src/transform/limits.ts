/**
 * The largest row (one NDJSON line) or raw record the loader hands DuckDB: 16 MiB, DuckDB's default
 * read_json `maximum_object_size`. The read_json calls in sql/ pass twice this (32 MiB), so a raw
 * record that JSON escapes make somewhat longer than its row still reads, and a record the validator
 * lets through is never near DuckDB's limit. A bigger record is a reject naming its size.
 */
export const MAX_RECORD_BYTES = 16 * 1024 * 1024;

/** The `maximum_object_size` every read_json in sql/ passes; test/hostile/poisonRecords.test.ts checks them. */
export const READ_JSON_MAX_OBJECT_BYTES = 2 * MAX_RECORD_BYTES;

/**
 * The longest `raw_json` a reject keeps, in characters: a record rejected for its size is kept cut
 * to this (marked as cut), so that its reject line still loads.
 */
export const MAX_REJECT_RAW_CHARS = 1024 * 1024;

/** `raw` cut to MAX_REJECT_RAW_CHARS, saying how long it was; unchanged when shorter. */
export function cutForReject(raw: string): string {
  if (raw.length <= MAX_REJECT_RAW_CHARS) return raw;
  return `${raw.slice(0, MAX_REJECT_RAW_CHARS)}... [cut: ${raw.length} characters in all]`;
}

const LONE_SURROGATE = /\p{Cs}/gu;

/**
 * Text with every lone surrogate replaced by U+FFFD: a reject's reason or id can quote what the
 * record held, and DuckDB's JSON reader refuses the escape of a lone surrogate.
 */
export function storableText(text: string): string {
  return text.replace(LONE_SURROGATE, "\uFFFD");
}

/**
 * The path of the first string or key under `value` that holds a lone surrogate (which no VARCHAR
 * or JSON column can store), or undefined when there is none.
 */
export function unstorableTextAt(path: string, value: unknown): string | undefined {
  if (typeof value === "string") return LONE_SURROGATE_TEST.test(value) ? path : undefined;
  if (value === null || typeof value !== "object") return undefined;
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = unstorableTextAt(`${path}[${index}]`, item);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  for (const key of Object.keys(value)) {
    const child = path === "" ? key : `${path}.${key}`;
    if (LONE_SURROGATE_TEST.test(key)) return child;
    const found = unstorableTextAt(child, (value as Record<string, unknown>)[key]);
    if (found !== undefined) return found;
  }
  return undefined;
}

const LONE_SURROGATE_TEST = /\p{Cs}/u;
